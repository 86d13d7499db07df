// Idempotency keys of import chunks, and the fingerprints they are made of.
//
// The key of chunk N is a hash of: the options fingerprint (object type, column mapping,
// API options, typing options, chunk size), the property definitions the rows are typed
// with, N, and the hash of the file's content from its first byte to the end of chunk N.
// Those decide the chunk's request body, byte for byte, so the body itself need not be
// hashed. Running the same command on the same file again sends the same keys, so the API
// replays its first answers instead of creating the rows twice (within the 24 hours the
// API keeps them; past that, --dedupe-by is what prevents duplicates); a changed definition
// (an option renamed, a type changed) gives new keys, since the bodies may differ.
import { createHash, type Hash } from 'node:crypto';
import type { ColumnPlan } from './mapping.ts';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A stable hash of a JSON-like value (object keys sorted). */
export function fingerprint(value: unknown): string {
  return sha256(canonical(value));
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The hash of everything read so far; `at()` gives it without ending it. Texts are hashed
 * in batches of about 64 KiB (one call into the hash per row would cost more than hashing).
 */
export class RunningHash {
  private readonly hash: Hash = createHash('sha256');
  private pending: string[] = [];
  private pendingLength = 0;
  update(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= 65536) this.flush();
  }
  at(): string {
    this.flush();
    return this.hash.copy().digest('hex');
  }
  private flush(): void {
    if (this.pending.length === 0) return;
    this.hash.update(this.pending.join(''));
    this.pending = [];
    this.pendingLength = 0;
  }
}

export function chunkKey(keyFingerprint: string, index: number, prefixHash: string): string {
  return `ws-import-${sha256(`${keyFingerprint}\n${index}\n${prefixHash}`)}`;
}

/**
 * The key of a part of a chunk sent on its own (`what` names the part: the rows left after a
 * 400, a half after a 413, the chunk again after a stale key): the same part of the same
 * chunk has the same key on every run.
 */
export function partKey(key: string, what: string): string {
  return `ws-import-${sha256(`${key}\n${what}`)}`;
}

/**
 * The fingerprint the chunks' keys derive from: the options fingerprint, and what of each
 * column's definition decides how its cells type (not its name, description or timestamps).
 */
export function keyFingerprint(optionsFingerprint: string, columns: readonly ColumnPlan[]): string {
  return fingerprint({ options: optionsFingerprint, typing: columns.map((c) => typingOf(c.def)) });
}

function typingOf(def: ColumnPlan['def']): unknown {
  if (!def) return null;
  return {
    slug: def.slug,
    type: def.type,
    required: def.required === true,
    options: (def.options ?? []).map((o) => [o.id, o.slug, o.value ?? null]),
  };
}
