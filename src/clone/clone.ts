// A sandbox cloned from a real workspace: `ws sandbox clone PROFILE --to FILE` (and, for
// `ws sandbox start --from PROFILE`, cloneWorkspace() below). The workspace is read through
// the API, read-only, with the profile's key and within its rate limit (read.ts); the clone
// is built in a private sandbox and written as a sandbox snapshot (build.ts), scrubbed of
// personal data when asked (scrub.ts). A run stopped by Ctrl-C leaves a checkpoint beside
// FILE, and the same command continues from it.

import { createHmac } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RecordType } from '../api/object-types.ts';
import { noSuchProfile, resolveCredentials } from '../config/resolve.ts';
import { InterruptedError, isAbortError, UsageError } from '../errors.ts';
import type { Deps } from '../factory.ts';
import { type Built, buildSnapshot, type LeftOut } from './build.ts';
import {
  checkpointPath,
  leastRequests,
  openState,
  readWorkspace,
  removeState,
  saveState,
} from './read.ts';
import { Scrubber, type ScrubKind } from './scrub.ts';

export const DEFAULT_SAMPLE = 200;
/** The most records per type: the clone's records are written in one seed request. */
export const MAX_SAMPLE = 1000;

export interface CloneOptions {
  /** The profile of the workspace to clone. */
  profile: string;
  /** The snapshot file to write (resolved from deps.cwd). */
  to: string;
  /** Records per object type, at most (default 200). */
  sample?: number;
  /** Replace emails, phone numbers and people's names (scrub.ts). */
  scrub?: boolean;
  /** Keep automations enabled as they are in the workspace (their webhooks stay disabled). */
  enableAutomations?: boolean;
  /** Replace FILE when it exists (and no checkpoint of it does). */
  force?: boolean;
}

export interface CloneSummary {
  file: string;
  profile: string;
  sample: number;
  scrubbed: boolean;
  /** Whether this run continued from a checkpoint. */
  resumed: boolean;
  /** What the clone holds (its records: the sample and the records it refers to, by type). */
  copied: Built['copied'] & {
    /** Of the records, those fetched because the sample refers to them, by type. */
    referenced: Partial<Record<RecordType, number>>;
  };
  left_out: LeftOut[];
  /** Values replaced by --scrub, by kind. */
  scrub_counts: Record<ScrubKind, number> | null;
  requests: {
    /** Requests sent to the workspace, every run of this clone together. */
    spent: number;
    /** The fewest that read the same: pages of the largest size, nothing asked twice. */
    least: number;
  };
  seconds: number;
}

/** The key the scrubber and the webhooks' derived secrets use: WS_SCRUB_KEY, or one derived from the API key. */
function cloneKey(deps: Deps, apiKey: string): string {
  const given = deps.env['WS_SCRUB_KEY'];
  if (given) return given;
  return createHmac('sha256', apiKey).update('ws sandbox clone').digest('hex');
}

/**
 * Clone the workspace of `opts.profile` into the snapshot file `opts.to`. Progress goes to
 * stderr; the answer says what was copied, what was left out and why, and the requests
 * spent. Ctrl-C (deps.signal) leaves the checkpoint and throws InterruptedError.
 */
export async function cloneWorkspace(opts: CloneOptions, deps: Deps): Promise<CloneSummary> {
  const started = Date.now();
  const sample = opts.sample ?? DEFAULT_SAMPLE;
  if (!Number.isInteger(sample) || sample < 1 || sample > MAX_SAMPLE) {
    throw new UsageError(`--sample takes a whole number from 1 to ${MAX_SAMPLE}, not ${sample}.`);
  }
  const file = resolve(deps.cwd, opts.to);
  const store = await deps.config();
  if (store.get(opts.profile) === undefined) throw noSuchProfile(opts.profile, store.names());
  const creds = resolveCredentials(store, deps.env, opts.profile);
  const resumed = existsSync(checkpointPath(file));
  if (!resumed && existsSync(file) && opts.force !== true) {
    throw new UsageError(
      `${opts.to} exists already.`,
      'Add --force to replace it, or clone to another file.',
    );
  }
  const state = openState(file, creds.baseUrl, creds.teamId);
  const client = await deps.clientFor(creds);
  const spent = () => state.requests + client.requestsSent;
  const save = () => saveState(file, { ...state, requests: spent() });
  const where = `${creds.profile ?? 'the environment'}'s workspace`;
  const progress = await deps.io.progress(
    resumed ? `Continuing the clone of ${where} from ${checkpointPath(file)}` : `Cloning ${where}`,
  );
  let built: Built;
  let scrubber: Scrubber | undefined;
  try {
    await readWorkspace(client, state, {
      sample,
      signal: deps.signal,
      save,
      progress: (text) => progress.update(`${text} (${spent()} requests)`),
    });
    state.requests = spent();
    const key = cloneKey(deps, creds.apiKey);
    scrubber = opts.scrub ? new Scrubber(key) : undefined;
    built = await buildSnapshot(state, {
      key,
      scrub: scrubber,
      enableAutomations: opts.enableAutomations === true,
      io: deps.io,
      progress: (text) => progress.update(text),
    });
    deps.signal.throwIfAborted();
  } catch (err) {
    progress.stop();
    if (isAbortError(err) || deps.signal.aborted) {
      save();
      throw new InterruptedError(
        `Interrupted. What was read is kept in ${checkpointPath(file)}.`,
        'Run the same command again to continue where it stopped.',
      );
    }
    throw err;
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, built.text, { mode: 0o600 });
  renameSync(tmp, file);
  removeState(file);
  const referenced = Object.fromEntries(
    Object.entries(state.referenced ?? {}).map(([type, r]) => [type, r.rows.length]),
  );
  const summary: CloneSummary = {
    file,
    profile: opts.profile,
    sample,
    scrubbed: scrubber !== undefined,
    resumed,
    copied: { ...built.copied, referenced },
    left_out: built.leftOut,
    scrub_counts: scrubber ? { ...scrubber.counts } : null,
    requests: { spent: state.requests, least: leastRequests(state) },
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
  progress.stop();
  return summary;
}
