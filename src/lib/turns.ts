/**
 * Resolves after one turn of the event loop, once pending I/O had its turn. A long piece-by-piece
 * read awaits it between pieces: on SQLite a read never waits for I/O, so without it the whole read
 * would run before any other request is served.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How long a stretch of steps runs before the event loop gets a turn. */
const STEPS_SLICE_MS = 8;

/**
 * Runs a generator of steps to its end, giving the event loop a turn (`nextTurn`) whenever a stretch
 * of steps has run for STEPS_SLICE_MS: long pure calculation (a report's tree) never holds other
 * requests for longer than a slice, and alone it loses almost nothing to the pauses.
 */
export async function inTurns<T>(steps: Generator<unknown, T>): Promise<T> {
  let sliceStarted = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStarted >= STEPS_SLICE_MS) {
      await nextTurn();
      sliceStarted = performance.now();
    }
  }
}
