// The cursors of the sandbox's listings. Opaque to clients (api.md: "offset-based but must
// be treated as opaque"): base64url of JSON `{ v: 1, ...position, q: fingerprint }`, where
// the position says where the next page starts (an offset, a page size, a sequence) and the
// fingerprint hashes what decides the listing (its scope, filters and order). A cursor is
// good only for the listing that gave it out: another listing's is refused with 400
// (cursor_mismatch), and text no listing gave out with 400 too (invalid_cursor), on the
// field the cursor came in.

import { createHash } from 'node:crypto';
import { canonicalJson } from '../util/canonical-json.ts';
import { isPlainObject } from '../util/guards.ts';
import { invalidRequest } from './errors.ts';

/** A short hash of what decides a listing (key order does not count). */
export function fingerprintOf(listing: unknown): string {
  return createHash('sha256').update(canonicalJson(listing)).digest('base64url').slice(0, 16);
}

export function writeCursor(position: Readonly<Record<string, number>>, fingerprint: string) {
  return Buffer.from(JSON.stringify({ v: 1, ...position, q: fingerprint })).toString('base64url');
}

export interface CursorReading<K extends string> {
  /** The field the cursor came in: `query.cursor`, or a body's. */
  readonly field: string;
  /** Each number of the position, with its range. */
  readonly position: Readonly<Record<K, { readonly min: number; readonly max?: number }>>;
  /** What a listing is, in the messages: `query`, `listing`. */
  readonly listing: string;
  /** What sets one listing apart from another: `a different filter, sort or list`. */
  readonly differs: string;
  /** Where a listing without a cursor starts: `the first page` by default. */
  readonly start?: string;
}

/** The position a cursor holds; 400 on `reading.field` when it is not this listing's. */
export function readCursor<K extends string>(
  cursor: string,
  fingerprint: string,
  reading: CursorReading<K>,
): Record<K, number> {
  const { field, listing } = reading;
  const start = reading.start ?? 'the first page';
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const state = isPlainObject(parsed) ? parsed : {};
  const position = {} as Record<K, number>;
  let valid = state['v'] === 1 && typeof state['q'] === 'string';
  for (const [key, { min, max = Number.MAX_SAFE_INTEGER }] of Object.entries(reading.position) as [
    K,
    { min: number; max?: number },
  ][]) {
    const value = state[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
      valid = false;
    else position[key] = value;
  }
  if (!valid) {
    throw invalidRequest(
      `${field}: this is not a cursor the API issued. Pass next_cursor back exactly as received, or leave the cursor out to start from ${start}.`,
      [{ field, code: 'invalid_cursor', message: 'not a cursor the API issued' }],
    );
  }
  if (state['q'] !== fingerprint) {
    throw invalidRequest(
      `${field}: the cursor belongs to another ${listing} (${reading.differs}). Send the same ${listing} with its next_cursor, or leave the cursor out to start from ${start}.`,
      [{ field, code: 'cursor_mismatch', message: `the cursor belongs to another ${listing}` }],
    );
  }
  return position;
}
