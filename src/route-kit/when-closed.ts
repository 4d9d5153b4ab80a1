/** What whenClosed needs of a reply: its connection's state and its 'close' event. */
export interface ClosingReply {
  raw: { readonly closed: boolean; once(event: 'close', listener: () => void): unknown };
}

/**
 * Runs `listener` once the answer's connection has closed: at once if it already has. A client may
 * leave while an earlier hook waits (a token's lookup or touch), and a 'close' listener added after
 * the close never runs: whatever it was to give back would be held for good.
 */
export function whenClosed(reply: ClosingReply, listener: () => void): void {
  if (reply.raw.closed) listener();
  else reply.raw.once('close', listener);
}
