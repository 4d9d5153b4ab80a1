/**
 * Requests this process is serving besides the long listings, counted by http/heavy-listings.ts, and
 * when one last started or ended. A long read gives way to them between its pieces (giveWay).
 */
const serving = { others: 0, lastSeenAt: 0 };

export function otherRequestStarted(): void {
  serving.others++;
  serving.lastSeenAt = performance.now();
}

export function otherRequestEnded(): void {
  serving.others--;
  serving.lastSeenAt = performance.now();
}

/** Requests being served that a long read gives way to (tests wait for a count). */
export const othersInFlight = (): number => serving.others;

/** The longest a long read waits before its next piece, however long the last one took. */
const LONGEST_WAIT_MS = 1_000;

/** When a long read's last piece started and how long it took to read. */
export interface PieceTime {
  startedAt: number;
  ms: number;
}

/** Times one piece of a long read (see giveWay). */
export async function timed<T>(read: () => Promise<T>): Promise<{ value: T; time: PieceTime }> {
  const startedAt = performance.now();
  const value = await read();
  return { value, time: { startedAt, ms: performance.now() - startedAt } };
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
