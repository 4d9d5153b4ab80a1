/**
 * A long answer whose pieces after the first are read only as the client takes the ones before
 * (a long listing, read from one snapshot): the HTTP layer streams `rest` (http/json-answer.ts), so a
 * client that does not read leaves the rest unread in the database.
 */
export interface LaterPieces {
  first: Buffer | string;
  rest: AsyncIterable<Buffer | string>;
  /**
   * Called once the answer's connection has closed: lets go of what `rest` holds (its snapshot),
   * also when `rest` was never started (its client gone before the answer was sent), which `rest`
   * itself then never would.
   */
  close(): Promise<void>;
}
