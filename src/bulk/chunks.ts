// Sending many items in chunks (at most 100 per call for the batch endpoints), several
// chunks at once, with one result per item. The shared rate limiter of the HTTP client
// paces the requests; this runner only bounds how many are in flight.
//
// A chunk that fails as a whole (a 5xx, a dropped connection, a 429 the client gave up
// on) is sent again with the same idempotency key, so the service either replays its
// first answer or does the work once. A chunk that still fails marks each of its items
// failed with that error. Errors no retry can fix (401/403, a cancelled run) stop the run:
// no new chunk starts, the results so far are kept, and the error is returned beside them.
import { ApiError, ExitCode, isAbortError, NetworkError, WsError } from '../errors.ts';
import { sleep } from '../util/time.ts';

export interface ItemError {
  code: string;
  message: string;
}

/** The outcome of one input item. */
export interface ItemResult {
  /** Zero-based position of the item in the input. */
  index: number;
  /** The record id (null when the service could not read the item). */
  id: string | null;
  status: 'ok' | 'error';
  error?: ItemError | undefined;
  /** What the service answered for the item (for example the updated record). */
  record?: unknown;
}

/** What `send` answers for a chunk: one entry per item, in order. */
export interface SentItem {
  id: string | null;
  status: 'ok' | 'error';
  error?: ItemError | undefined;
  record?: unknown;
}

export interface ChunkContext {
  /** Zero-based chunk number. */
  chunk: number;
  /** 1 on the first attempt. */
  attempt: number;
  /** The same for every attempt of a chunk. */
  idempotencyKey: string;
  signal: AbortSignal | undefined;
}

export interface ChunkProgress {
  /** Items with a result. */
  done: number;
  failed: number;
  total: number;
  /** Chunks sent and answered. */
  chunks: number;
}

export interface RunChunksOptions<I> {
  items: readonly I[];
  /** Items per call (default 100). */
  size?: number;
  /** Chunks in flight at once (default 4). */
  concurrency?: number;
  /** Extra attempts for a chunk that failed as a whole (default 3). */
  retries?: number;
  send(chunk: readonly I[], ctx: ChunkContext): Promise<readonly SentItem[]>;
  /** The id to report for an item when its whole chunk failed. */
  idOf?(item: I): string | null;
  onProgress?(progress: ChunkProgress): void;
  signal?: AbortSignal | undefined;
  /** Wait before a chunk is sent again (default: 250 ms doubling, at most 4 s). */
  backoff?(attempt: number, signal: AbortSignal | undefined): Promise<void>;
  newKey?(): string;
}

export interface ChunkRun {
  /** One result per item that was attempted, in input order. */
  results: ItemResult[];
  succeeded: number;
  failed: number;
  /** Items never sent because the run stopped. */
  notAttempted: number;
  /** Calls made, retries included. */
  calls: number;
  /** Why the run stopped early, if it did. */
  stopped?: unknown;
}

export const CHUNK_SIZE = 100;
export const DEFAULT_CONCURRENCY = 4;

/** Worth sending the chunk again: the service failed or the connection did. */
export function chunkRetryable(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  if (err instanceof ApiError) return err.status >= 500 || err.status === 429;
  return false;
}

/** Nothing later can succeed either: bad credentials, a cancelled run. */
export function stopsRun(err: unknown): boolean {
  if (isAbortError(err)) return true;
  if (err instanceof WsError)
    return err.exitCode === ExitCode.auth || err.exitCode === ExitCode.interrupted;
  return false;
}

function itemErrorOf(err: unknown): ItemError {
  if (err instanceof ApiError)
    return { code: err.apiCode ?? `http_${err.status}`, message: err.message };
  if (err instanceof WsError) return { code: err.code, message: err.message };
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

const defaultBackoff = (attempt: number, signal: AbortSignal | undefined) =>
  sleep(Math.min(4000, 250 * 2 ** (attempt - 1)), signal);

export async function runChunks<I>(opts: RunChunksOptions<I>): Promise<ChunkRun> {
  const size = Math.max(1, opts.size ?? CHUNK_SIZE);
  const concurrency = Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY);
  const retries = Math.max(0, opts.retries ?? 3);
  const backoff = opts.backoff ?? defaultBackoff;
  const newKey = opts.newKey ?? (() => globalThis.crypto.randomUUID());
  const total = opts.items.length;
  const chunkCount = Math.ceil(total / size);
  const slots: (ItemResult[] | undefined)[] = new Array(chunkCount);
  let next = 0;
  let done = 0;
  let failed = 0;
  let answered = 0;
  let calls = 0;
  let stopped: unknown;

  const record = (c: number, results: ItemResult[]) => {
    slots[c] = results;
    done += results.length;
    failed += results.filter((r) => r.status === 'error').length;
    answered++;
    opts.onProgress?.({ done, failed, total, chunks: answered });
  };

  const sendChunk = async (c: number): Promise<void> => {
    const start = c * size;
    const chunk = opts.items.slice(start, start + size);
    const key = newKey();
    for (let attempt = 1; ; attempt++) {
      if (stopped !== undefined) return;
      calls++;
      try {
        const sent = await opts.send(chunk, {
          chunk: c,
          attempt,
          idempotencyKey: key,
          signal: opts.signal,
        });
        record(
          c,
          chunk.map((item, i) => {
            const s = sent[i];
            if (s === undefined) {
              return {
                index: start + i,
                id: opts.idOf?.(item) ?? null,
                status: 'error' as const,
                error: {
                  code: 'no_result',
                  message: 'The service answered no result for this item.',
                },
              };
            }
            return {
              index: start + i,
              id: s.id,
              status: s.status,
              ...(s.error ? { error: s.error } : {}),
              ...(s.record !== undefined ? { record: s.record } : {}),
            };
          }),
        );
        return;
      } catch (err) {
        if (stopsRun(err) || opts.signal?.aborted) {
          stopped ??= opts.signal?.aborted ? (opts.signal.reason ?? err) : err;
          return;
        }
        if (chunkRetryable(err) && attempt <= retries) {
          try {
            await backoff(attempt, opts.signal);
          } catch (abort) {
            stopped ??= abort;
            return;
          }
          continue;
        }
        const error = itemErrorOf(err);
        record(
          c,
          chunk.map((item, i) => ({
            index: start + i,
            id: opts.idOf?.(item) ?? null,
            status: 'error' as const,
            error,
          })),
        );
        return;
      }
    }
  };

  const worker = async () => {
    while (stopped === undefined && next < chunkCount) {
      const c = next++;
      await sendChunk(c);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunkCount) }, worker));

  const results = slots.flatMap((s) => s ?? []);
  return {
    results,
    succeeded: done - failed,
    failed,
    notAttempted: total - done,
    calls,
    ...(stopped !== undefined ? { stopped } : {}),
  };
}
