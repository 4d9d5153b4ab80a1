/**
 * Resolves after one turn of the event loop, once pending I/O had its turn. A long piece-by-piece
 * read awaits it between pieces: on SQLite a read never waits for I/O, so without it the whole read
 * would run before any other request is served.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
