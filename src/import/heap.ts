// How large V8's young generation may grow while an import runs.
//
// V8 doubles the young generation each time the objects that survived its collections add
// up to its size, up to a ceiling that Node 24 sets far higher than Node 20 did (here 64 MiB
// and more, against 32): a long import, whose chunks and answers live across collections,
// reaches it, and the process's peak RSS with it (286 MiB over 1,000,000 rows on Node 24,
// when 30 MiB of it were in use). The ceiling is fixed when the process starts, but the
// growth factor is read each time the young generation grows: set to 1 once the young
// generation is as large as YOUNG_CAP, it grows no more. Allocation patterns do the rest
// (rows held as bytes outside the heap: bytes.ts).
//
// This is the one V8 flag ws sets at run time (Node's docs warn that a flag changed after
// start-up may misbehave; this one is only read as the generation grows). Measured without
// it (bench/import.mjs --case memory, 3 runs, against the build with it): peak RSS 295
// against 171 MiB over 1,000,000 rows and 224 against 151 MiB over 200,000 on Node 24, 215
// against 180 MiB over 1,000,000 on Node 26. The public way to bound a young generation is
// a worker's resourceLimits (maxYoungGenerationSizeMb), which would mean running the import
// in a worker.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * Bytes of young generation (V8's new_space) past which it stops growing. Measured with
 * bench/import.mjs over 200,000 and 1,000,000 rows: 16 MiB keeps the peak RSS near 150 and
 * 170 MiB on Node 24 (8 MiB gains little more; 32 MiB is 180 at 200,000 rows) at the same
 * CPU time as no cap, within the spread of the runs.
 */
const YOUNG_CAP = 16 * 1024 * 1024;

let capped = false;

/** Called as the import goes: stops the young generation's growth once it has reached YOUNG_CAP. */
export function capYoungGeneration(): void {
  if (capped) return;
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (young === undefined || young.space_size < YOUNG_CAP) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  capped = true;
}
