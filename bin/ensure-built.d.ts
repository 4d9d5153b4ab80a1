/** Compiles src/ to dist/ when dist/ is missing or older than src/, and the web app into dist/web when web/ or src/ changed. */
export function ensureBuilt(): void;
