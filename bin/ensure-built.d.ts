/** Compiles src/ to dist/ when dist/ is missing or older than src/. */
export function ensureBuilt(): void;
