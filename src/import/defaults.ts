// How `ws import` sends rows unless told otherwise: rows per import call and calls in flight.
// Measured with bench/import.mjs; docs/internals/import-performance.md has the figures.
export const DEFAULT_CHUNK_SIZE = 10_000;
export const DEFAULT_CONCURRENCY = 4;
