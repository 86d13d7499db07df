// Limits the command tree names in its help and flag checks, apart from the verbs' code.
export const MAX_CONCURRENCY = 16;
