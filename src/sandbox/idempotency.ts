// Idempotency keys, for every POST, PUT and PATCH of the API that carries Idempotency-Key:
//
// - the key must be 1 to 255 characters (else 400 with a field error on the header);
// - the first answer (status, body, location/etag headers) is kept for 24 hours of sandbox
//   time per (API key, method, path, key) and replayed with `idempotent-replay: true`;
// - the same key with another body (canonical JSON hash) is a 409 idempotency_key_mismatch;
// - a request whose key is still in flight waits for the first and replays its answer;
// - 5xx answers are not kept, so the request can be retried with the same key;
// - at most MAX_IDEMPOTENCY_ENTRIES answers are kept: past that the oldest go first (a
//   retry that comes after 10,000 newer keyed writes is done again, as a new request).
//
// Finished answers live in the store (the `idempotency` slice): they persist with the data
// file and go away with reset(). Requests in flight are only tracked in memory.

import { createHash } from 'node:crypto';
import { canonicalJson } from '../util/canonical-json.ts';
import { isPlainObject } from '../util/guards.ts';
import { SandboxError } from './errors.ts';
import type { Reply } from './resource.ts';
import { defineSlice, type Slice, type SliceContext, SnapshotError, type Store } from './store.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Answers kept at most (each costs a few KB of memory and about 1 KB of data file). */
export const MAX_IDEMPOTENCY_ENTRIES = 10_000;
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);
/** Response headers that belong to the answer and are replayed with it. */
const REPLAYED_HEADERS = ['location', 'etag', 'last-modified', 'content-location'];
const KEY_FIELD = 'header.idempotency-key';

export interface CachedAnswer {
  /** Sandbox time (epoch ms) the answer was first given. */
  created_ms: number;
  /** Hash of the canonical JSON body of the first request. */
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

export class IdempotencyCache implements Slice {
  private answers = new Map<string, CachedAnswer>();
  private readonly ctx: SliceContext;

  constructor(ctx: SliceContext) {
    this.ctx = ctx;
  }

  /** The live (not expired) answer under `key`. */
  get(key: string): CachedAnswer | undefined {
    const entry = this.answers.get(key);
    if (entry === undefined) return undefined;
    if (this.expired(entry)) {
      this.answers.delete(key);
      this.ctx.changed(key);
      return undefined;
    }
    return entry;
  }

  put(key: string, answer: CachedAnswer): void {
    // A Map iterates in insertion order: the first entry is the oldest.
    this.answers.delete(key);
    this.answers.set(key, answer);
    this.ctx.changed(key);
    this.evict();
  }

  /** Drop the oldest answers beyond MAX_IDEMPOTENCY_ENTRIES (journaled, except while loading). */
  private evict(journal = true): void {
    for (const key of this.answers.keys()) {
      if (this.answers.size <= MAX_IDEMPOTENCY_ENTRIES) return;
      this.answers.delete(key);
      if (journal) this.ctx.changed(key);
    }
  }

  get size(): number {
    return this.answers.size;
  }

  reset(): void {
    this.answers.clear();
  }

  isEmpty(): boolean {
    return this.answers.size === 0;
  }

  /** Live entries as [key, answer] pairs (expired ones are dropped here). */
  toJSON(): [string, CachedAnswer][] {
    for (const [key, entry] of this.answers) if (this.expired(entry)) this.answers.delete(key);
    return [...this.answers];
  }

  /** Journal entries: one per kept answer (expired ones are left to their next read). */
  entries(): IterableIterator<[string, unknown]> {
    return this.answers.entries();
  }

  entry(key: string): unknown {
    return this.answers.get(key);
  }

  loadEntry(key: string, value: unknown): void {
    if (value === undefined) this.answers.delete(key);
    else
      this.answers.set(key, checkAnswer(value, `store.slices.idempotency[${JSON.stringify(key)}]`));
  }

  load(data: unknown): void {
    const base = 'store.slices.idempotency';
    if (!Array.isArray(data)) throw new SnapshotError(base, 'must be an array of [key, answer]');
    const entries = new Map<string, CachedAnswer>();
    for (const [i, item] of data.entries()) {
      const at = `${base}[${i}]`;
      if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string') {
        throw new SnapshotError(at, 'must be a [key, answer] pair with a string key');
      }
      entries.set(item[0], checkAnswer(item[1], at));
    }
    this.answers = entries;
    this.evict(false);
  }

  private expired(entry: CachedAnswer): boolean {
    return this.ctx.clock.nowMs() >= entry.created_ms + IDEMPOTENCY_TTL_MS;
  }
}

function checkAnswer(answer: unknown, at: string): CachedAnswer {
  if (
    !isPlainObject(answer) ||
    typeof answer['created_ms'] !== 'number' ||
    typeof answer['fingerprint'] !== 'string' ||
    typeof answer['status'] !== 'number' ||
    !isPlainObject(answer['headers']) ||
    !Object.values(answer['headers']).every((v) => typeof v === 'string')
  ) {
    throw new SnapshotError(
      at,
      'answer must have created_ms (number), fingerprint (string), status (number) and headers (strings)',
    );
  }
  return answer as unknown as CachedAnswer;
}

export const idempotencySlice = defineSlice('idempotency', (ctx) => new IdempotencyCache(ctx));

/** Throws 400 unless `key` is 1 to 255 characters. */
export function checkIdempotencyKey(key: string): void {
  if (key.length >= 1 && key.length <= 255) return;
  const message =
    key.length === 0
      ? 'Idempotency-Key must be 1 to 255 characters long; it is empty.'
      : `Idempotency-Key must be 1 to 255 characters long; it has ${key.length}.`;
  throw new SandboxError(400, 'invalid_request', message, [
    { field: KEY_FIELD, message, code: key.length === 0 ? 'min_length' : 'max_length' },
  ]);
}

/** Hash of a request body; a request without a body hashes differently from `null`. */
export function fingerprint(body: unknown): string {
  const text = body === undefined ? '' : `json:${canonicalJson(body)}`;
  return createHash('sha256').update(text).digest('hex');
}

export interface IdempotentRequest {
  apiKey: string;
  method: string;
  /** Raw path, without the query string. */
  path: string;
  key: string;
  body: unknown;
  /** Request id of this request: replayed error bodies carry it as error.request_id. */
  requestId: string;
}

interface InFlight {
  fingerprint: string;
  done: Promise<void>;
}

export class Idempotency {
  private readonly store: Store;
  private readonly inFlight = new Map<string, InFlight>();

  constructor(store: Store) {
    this.store = store;
  }

  /**
   * Answer `request` from the cache, or run `execute` once and keep its answer. Throws the
   * 409 for a key reused with another body. Errors thrown by `execute` are not kept.
   */
  async run(
    request: IdempotentRequest,
    execute: () => Promise<Reply>,
  ): Promise<{ reply: Reply; replayed: boolean }> {
    checkIdempotencyKey(request.key);
    const cache = this.store.slice(idempotencySlice);
    const print = fingerprint(request.body);
    const cacheKey = JSON.stringify([
      createHash('sha256').update(request.apiKey).digest('hex').slice(0, 32),
      request.method.toUpperCase(),
      request.path,
      request.key,
    ]);

    for (;;) {
      const cached = cache.get(cacheKey);
      if (cached !== undefined) {
        if (cached.fingerprint !== print) throw mismatch(request.key);
        return { reply: replay(cached, request.requestId), replayed: true };
      }
      const flight = this.inFlight.get(cacheKey);
      if (flight === undefined) break;
      if (flight.fingerprint !== print) throw mismatch(request.key);
      await flight.done;
      // The first request finished: its answer is cached now, unless it was not kept
      // (a 5xx, or the store was reset), in which case this request does the work itself.
    }

    let finish!: () => void;
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    this.inFlight.set(cacheKey, { fingerprint: print, done });
    const generation = this.store.generation;
    try {
      const reply = await execute();
      if (reply.status < 500 && this.store.generation === generation) {
        cache.put(cacheKey, {
          created_ms: this.store.clock.nowMs(),
          fingerprint: print,
          status: reply.status,
          headers: replayedHeaders(reply.headers),
          ...(reply.body === undefined ? {} : { body: structuredClone(reply.body) }),
        });
      }
      return { reply, replayed: false };
    } finally {
      this.inFlight.delete(cacheKey);
      finish();
    }
  }
}

function mismatch(key: string): SandboxError {
  return new SandboxError(
    409,
    'idempotency_key_mismatch',
    `Idempotency-Key '${key}' was already used with a different request body; use a new key for a different request.`,
  );
}

function replayedHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  if (headers === undefined) return kept;
  for (const [name, value] of Object.entries(headers)) {
    if (REPLAYED_HEADERS.includes(name.toLowerCase())) kept[name.toLowerCase()] = value;
  }
  return kept;
}

function replay(cached: CachedAnswer, requestId: string): Reply {
  let body = cached.body === undefined ? undefined : structuredClone(cached.body);
  // An error body names the request it answers; keep error.request_id equal to this
  // answer's x-request-id header, as every error body of the API does.
  if (isPlainObject(body) && isPlainObject(body['error']) && 'request_id' in body['error']) {
    body = { ...body, error: { ...body['error'], request_id: requestId } };
  }
  return {
    status: cached.status,
    headers: { ...cached.headers, 'idempotent-replay': 'true' },
    ...(body === undefined ? {} : { body }),
  };
}
