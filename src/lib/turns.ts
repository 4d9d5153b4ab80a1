/*
 * Turns of the event loop, shared by every long piece of work in the process (a report's tree, an
 * export's rows, a long read's pieces). Whatever waits for a turn wakes in the same turn as the
 * others, once pending I/O had its own, and each then runs for its share of one slice: however many
 * reports run at once, other requests wait about one slice between two turns, never one slice per
 * report (docs/performance.md, "Report runs beside other workspaces").
 */

/** How long the work waiting for turns runs, all of it together, before the event loop gets the next. */
const SLICE_MS = 1;
/** The least a piece of work runs once woken, however many share the slice. */
const LEAST_SHARE_MS = 0.25;

let waiting: Array<() => void> = [];
let shareMs = SLICE_MS;

/**
 * Resolves after one turn of the event loop, once pending I/O had its turn. A long piece-by-piece
 * read awaits it between pieces: on SQLite a read never waits for I/O, so without it the whole read
 * would run before any other request is served.
 */
export const nextTurn = (): Promise<void> =>
  new Promise((resolve) => {
    if (waiting.push(resolve) > 1) return;
    setImmediate(() => {
      const woken = waiting;
      waiting = [];
      shareMs = Math.max(LEAST_SHARE_MS, SLICE_MS / woken.length);
      for (const wake of woken) wake();
    });
  });

/** One piece of work's pace: it takes a turn of the event loop whenever it has run for its share of a slice. */
export class Pace {
  private since = performance.now();

  /** Whether this work has used its share since its last turn. */
  get due(): boolean {
    return performance.now() - this.since >= shareMs;
  }

  /** Waits for the next turn. */
  async turn(): Promise<void> {
    await nextTurn();
    this.since = performance.now();
  }

  /** Takes a turn when one is due. */
  async step(): Promise<void> {
    if (this.due) await this.turn();
  }
}

/**
 * Runs a generator of steps to its end, taking a turn whenever its share is used: long pure
 * calculation (a report's tree) never holds other requests for longer than a slice, and alone it
 * loses almost nothing to the pauses.
 */
export async function inTurns<T>(steps: Generator<unknown, T>): Promise<T> {
  const pace = new Pace();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pace.step();
  }
}
