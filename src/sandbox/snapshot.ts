// Snapshots: a sandbox's workspace data as a file to keep beside a test suite, start a
// sandbox from, and diff in a review. A snapshot holds each team's definitions, records,
// views, grants, automations, contact views and webhooks (with their signing secrets, so a
// receiver's checks pass after a load: the file is written with mode 0600, as data files
// are), and the sandbox clock; not the API keys (a sandbox started from it makes its own, or
// takes those it is given), nor history: runs, deliveries, import jobs and idempotent
// answers (Slice.snapshot). So a sandbox loaded from a snapshot has fired no automation and
// owes no delivery; writes through the API afterwards fire as usual.
//
// The file is JSON, its keys in sorted order at every level, two spaces of indent, ids
// kept: the same state writes the same bytes, and a change shows as a small diff.
//
//   { "format": "ws-sandbox-snapshot", "version": 1, "clock_offset_ms": 0,
//     "teams": [ { "name": "default", "id": "…", "slices": { "records": …, … } } ] }

import { readFileSync } from 'node:fs';
import { canonicalJson } from '../util/canonical-json.ts';
import { isPlainObject, isUuid } from '../util/guards.ts';
import { SnapshotError, type Store } from './store.ts';

export const SNAPSHOT_FORMAT = 'ws-sandbox-snapshot';
export const SNAPSHOT_VERSION = 1;

export interface SnapshotTeam {
  name: string;
  id: string;
  slices: Record<string, unknown>;
}

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  clock_offset_ms: number;
  teams: SnapshotTeam[];
}

/** A snapshot that cannot be read; the message names the file (or "the snapshot") and why. */
export class SnapshotFileError extends Error {
  constructor(source: string, problem: string) {
    super(`${source} ${problem}.`);
    this.name = 'SnapshotFileError';
  }
}

/** The snapshot of a sandbox's teams (their stores share one clock). */
export function takeSnapshot(
  teams: readonly { name: string; id: string; store: Store }[],
): Snapshot {
  const first = teams[0]!.store;
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    clock_offset_ms: first.clock.offsetMs,
    teams: teams.map(({ name, id, store }) => ({ name, id, slices: store.snapshotJSON().slices })),
  };
}

/** A snapshot as its file holds it: sorted keys, two spaces of indent, a final newline. */
export function snapshotText(snapshot: Snapshot): string {
  return `${JSON.stringify(JSON.parse(canonicalJson(snapshot)), null, 2)}\n`;
}

/** Read a snapshot file; a damaged or foreign one is a SnapshotFileError that says why. */
export function readSnapshotFile(file: string): Snapshot {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SnapshotFileError(
      `Snapshot ${file}`,
      code === 'ENOENT' ? 'does not exist' : `cannot be read (${(err as Error).message})`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new SnapshotFileError(`Snapshot ${file}`, `is not JSON (${(err as Error).message})`);
  }
  return checkSnapshot(data, `Snapshot ${file}`);
}

/** `data` as a snapshot, checked in shape (each slice is checked when it is loaded). */
export function checkSnapshot(data: unknown, source = 'The snapshot'): Snapshot {
  if (!isPlainObject(data) || data['format'] !== SNAPSHOT_FORMAT) {
    throw new SnapshotFileError(
      source,
      `is not a sandbox snapshot (its "format" is not "${SNAPSHOT_FORMAT}"; write one with \`ws sandbox export FILE\`)`,
    );
  }
  if (data['version'] !== SNAPSHOT_VERSION) {
    throw new SnapshotFileError(
      source,
      `has version ${JSON.stringify(data['version'])}, and this sandbox reads version ${SNAPSHOT_VERSION}`,
    );
  }
  const offset = data['clock_offset_ms'];
  if (typeof offset !== 'number' || !Number.isFinite(offset)) {
    throw new SnapshotFileError(source, 'is damaged: clock_offset_ms is not a number');
  }
  const teams = data['teams'];
  if (!Array.isArray(teams) || teams.length === 0) {
    throw new SnapshotFileError(source, 'is damaged: it has no teams');
  }
  const names = new Set<string>();
  for (const [i, team] of teams.entries()) {
    const at = `teams[${i}]`;
    if (!isPlainObject(team) || typeof team['name'] !== 'string' || !isUuid(team['id'])) {
      throw new SnapshotFileError(source, `is damaged: ${at} needs a name and a UUID id`);
    }
    if (names.has(team['name'])) {
      throw new SnapshotFileError(source, `is damaged: two teams are named ${team['name']}`);
    }
    names.add(team['name']);
    if (!isPlainObject(team['slices'])) {
      throw new SnapshotFileError(source, `is damaged: ${at}.slices is not an object`);
    }
  }
  return data as unknown as Snapshot;
}

/**
 * Put a snapshot's team into `store` (its state is replaced; no event is emitted, so nothing
 * fires). A slice the snapshot damages is a SnapshotFileError naming it; the store keeps
 * what it held.
 */
export function loadSnapshotTeam(
  store: Store,
  snapshot: Snapshot,
  team: SnapshotTeam,
  source = 'The snapshot',
): void {
  try {
    store.fromJSON({ clock_offset_ms: snapshot.clock_offset_ms, slices: team.slices });
  } catch (err) {
    if (err instanceof SnapshotError) {
      throw new SnapshotFileError(
        source,
        `is damaged: team ${team.name}: ${err.message.replace(/^store\.slices\./, '')}`,
      );
    }
    throw err;
  }
}
