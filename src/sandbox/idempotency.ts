// Idempotency keys, for every POST, PUT and PATCH of the API that carries Idempotency-Key:
//
// - the key must be 1 to 255 characters (else 400 with a field error on the header);
// - the first answer (status, body, location/etag headers) is kept for 24 hours of sandbox
//   time per (API key, method, path, key) and replayed with `idempotent-replay: true`;
// - the same key with another body (canonical JSON hash) is a 409 idempotency_key_mismatch;
// - the key sent again after its answer expired is a 409 idempotency_key_stale (facts.md):
//   the expired key is remembered for STALE_RETENTION_MS more, then forgotten;
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
import { defineSlice, SliceModel, SnapshotError, type Store, snapshotItems } from './store.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Answers kept at most (each costs a few KB of memory and about 1 KB of data file). */
export const MAX_IDEMPOTENCY_ENTRIES = 10_000;
/** How long a key is still known as used (stale) after its answer expired. */
export const STALE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
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

/** A key whose answer expired: when (sandbox time, epoch ms). */
interface StaleKey {
  expired_ms: number;
}

export class IdempotencyCache extends SliceModel {
  private answers = new Map<string, CachedAnswer>();
  /** Keys whose answers expired, until STALE_RETENTION_MS after their expiry. */
  private stale = new Map<string, StaleKey>();

  /** The live (not expired) answer under `key`. */
  /** Cached answers are not a workspace's: a snapshot leaves them out. */
  snapshot(): undefined {
    return undefined;
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.answers.get(key);
    if (entry === undefined) return undefined;
    if (this.expired(entry)) {
      this.retire(key, entry);
      return undefined;
    }
    return entry;
  }

  /** When the answer under `key` expired, while the key is still remembered as used. */
  expiredAt(key: string): number | undefined {
    const entry = this.answers.get(key);
    if (entry !== undefined && this.expired(entry)) this.retire(key, entry);
    const stale = this.stale.get(key);
    if (stale === undefined) return undefined;
    if (this.ctx.clock.nowMs() >= stale.expired_ms + STALE_RETENTION_MS) {
      this.stale.delete(key);
      this.ctx.changed(key);
      return undefined;
    }
    return stale.expired_ms;
  }

  put(key: string, answer: CachedAnswer): void {
    // A Map iterates in insertion order: the first entry is the oldest.
    this.answers.delete(key);
    this.stale.delete(key);
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
    this.stale.clear();
  }

  isEmpty(): boolean {
    return this.answers.size === 0 && this.stale.size === 0;
  }

  /**
   * Live entries as [key, answer] pairs, then stale keys as [key, { expired_ms }] (expired
   * answers turn stale here; stale keys past their retention are forgotten).
   */
  toJSON(): [string, CachedAnswer | StaleKey][] {
    for (const [key, entry] of this.answers) if (this.expired(entry)) this.retire(key, entry);
    const now = this.ctx.clock.nowMs();
    for (const [key, stale] of this.stale) {
      if (now >= stale.expired_ms + STALE_RETENTION_MS) {
        this.stale.delete(key);
        this.ctx.changed(key);
      }
    }
    return [...this.answers, ...this.stale];
  }

  /** Journal entries: one per kept answer and per stale key (expired ones are left to their next read). */
  *entries(): IterableIterator<[string, unknown]> {
    yield* this.answers.entries();
    yield* this.stale.entries();
  }

  entry(key: string): unknown {
    return this.answers.get(key) ?? this.stale.get(key);
  }

  loadEntry(key: string, value: unknown): void {
    this.answers.delete(key);
    this.stale.delete(key);
    if (value === undefined) return;
    const at = `store.slices.idempotency[${JSON.stringify(key)}]`;
    const stale = staleKey(value);
    if (stale !== undefined) this.stale.set(key, stale);
    else this.answers.set(key, checkAnswer(value, at));
  }

  load(data: unknown): void {
    const answers = new Map<string, CachedAnswer>();
    const stale = new Map<string, StaleKey>();
    for (const [item, at] of snapshotItems(data, 'store.slices.idempotency', '[key, answer]')) {
      if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string') {
        throw new SnapshotError(at, 'must be a [key, answer] pair with a string key');
      }
      const s = staleKey(item[1]);
      if (s !== undefined) stale.set(item[0], s);
      else answers.set(item[0], checkAnswer(item[1], at));
    }
    this.answers = answers;
    this.stale = stale;
    this.evict(false);
  }

  private expired(entry: CachedAnswer): boolean {
    return this.ctx.clock.nowMs() >= entry.created_ms + IDEMPOTENCY_TTL_MS;
  }

  /** The answer under `key` expired: forget it, remember the key as used. */
  private retire(key: string, entry: CachedAnswer): void {
    this.answers.delete(key);
    this.stale.set(key, { expired_ms: entry.created_ms + IDEMPOTENCY_TTL_MS });
    this.ctx.changed(key);
  }
}

/** A stale key's entry ({ expired_ms }), or undefined when `value` is not one. */
function staleKey(value: unknown): StaleKey | undefined {
  return isPlainObject(value) &&
    Object.keys(value).length === 1 &&
    typeof value['expired_ms'] === 'number'
    ? { expired_ms: value['expired_ms'] }
    : undefined;
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
      'answer must have created_ms (number), fingerprint (string), status (number) and headers (strings), or be { expired_ms (number) } for a stale key',
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
      const expiredMs = cache.expiredAt(cacheKey);
      if (expiredMs !== undefined) throw stale(request.key, expiredMs);
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

function stale(key: string, expiredMs: number): SandboxError {
  return new SandboxError(
    409,
    'idempotency_key_stale',
    `Idempotency-Key '${key}' was used by a request whose stored answer expired at ${new Date(expiredMs).toISOString()} (answers are kept for 24 hours): whether that request was applied cannot be replayed, and the key is not run again. Check the state it would have changed, then send the request with a new key.`,
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
