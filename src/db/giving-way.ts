/**
 * Requests this process is serving besides the long listings, counted by http/heavy-listings.ts, and
 * when one last started or ended. A long read gives way to them between its pieces (giveWay), and the
 * webhook worker between its passes (wayToGive).
 */
const serving = { others: 0, lastSeenAt: 0, busySince: 0, busyMs: 0 };

export function otherRequestStarted(): void {
  const now = performance.now();
  if (serving.others === 0) serving.busySince = now;
  serving.others++;
  serving.lastSeenAt = now;
}

export function otherRequestEnded(): void {
  const now = performance.now();
  serving.others--;
  if (serving.others === 0) serving.busyMs += now - serving.busySince;
  serving.lastSeenAt = now;
}

/** Milliseconds during which this process has served at least one other request, up to now. */
const busyMsNow = (): number => serving.busyMs + (serving.others > 0 ? performance.now() - serving.busySince : 0);

/** Requests being served that a long read gives way to (tests wait for a count). */
export const othersInFlight = (): number => serving.others;

/** The longest a long read waits before its next piece, however long the last one took. */
const LONGEST_WAIT_MS = 1_000;

/** When a piece of long or background work started, how long it took, and for how much of that time other requests were served. */
export interface PieceTime {
  startedAt: number;
  ms: number;
  busyMs: number;
}

/** Times one piece of long or background work (see giveWay and wayToGive). */
export async function timed<T>(read: () => Promise<T>): Promise<{ value: T; time: PieceTime }> {
  const startedAt = performance.now();
  const busyAtStart = busyMsNow();
  const value = await read();
  return { value, time: { startedAt, ms: performance.now() - startedAt, busyMs: busyMsNow() - busyAtStart } };
}

/**
 * How long background work waits after a piece that took `last`, so that it takes at most `share` of
 * the time during which this process serves other requests: nothing when it served none meanwhile,
 * a pause in proportion to the time it did (at most LONGEST_WAIT_MS).
 */
export function wayToGive(last: PieceTime, share: number): number {
  if (last.busyMs <= 0) return 0;
  return Math.min(LONGEST_WAIT_MS, Math.max(1, Math.round((last.busyMs * (1 - share)) / share)));
}

/**
 * Before a long read's next piece: if this process served other requests since the last piece
 * started, or serves one now, waits as long as that piece took, so that a long read holds the
 * database (its connection, the CPU its statements take) at most about half the time while others
 * want it (docs/rules.md §6, "Listing activities"). Otherwise it does not wait. Resolves to whether
 * it waited.
 */
export async function giveWay(last: PieceTime): Promise<boolean> {
  if (serving.others <= 0 && serving.lastSeenAt < last.startedAt) return false;
  const ms = Math.min(LONGEST_WAIT_MS, Math.max(1, Math.round(last.ms)));
  await new Promise((resolve) => setTimeout(resolve, ms));
  return true;
}
