// Typed calls for imports: start an import (synchronous under 100 objects, an
// asynchronous job from 100), and poll an import job.
import type { ApiClient } from './client.ts';
import type { RecordType } from './object-types.ts';
import type { AnswerOf, Schemas } from './types.ts';

export type ImportJob = AnswerOf<'getImportJob', 200>;
export type ImportBody = Schemas['ImportBody'];
export type ImportOptions = NonNullable<ImportBody['options']>;
export type RowResult = Schemas['RowResult'];

/** Objects in one import call from which the API answers with an asynchronous job. */
export const ASYNC_IMPORT_THRESHOLD = 100;

/**
 * The largest request body the API is known to take: api.md shows none, and the sandbox
 * takes 10 MiB. A service that takes less answers 413, and the import splits the chunk.
 */
export const API_MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface StartedImport {
  /** 200: the finished job (results inline); 202: a job still processing. */
  status: number;
  job: AnswerOf<'importRecords', 200> | AnswerOf<'importRecords', 202>;
  /** The status URL of an asynchronous job (the Location header). */
  location: string | undefined;
  requestId: string | undefined;
  /** The answer was a replay of an earlier call with the same Idempotency-Key. */
  replay: boolean;
}

/**
 * POST /v2/prism/{teamId}/{objectType}/import. `body` is the import body, or its JSON
 * already serialised, as text or UTF-8 bytes (the import pipeline builds it as rows arrive).
 */
export async function importRecords(
  client: ApiClient,
  objectType: RecordType,
  body: ImportBody | string | Buffer,
  opts: { idempotencyKey: string; signal?: AbortSignal | undefined },
): Promise<StartedImport> {
  const res = await client.request<StartedImport['job']>({
    method: 'POST',
    path: ['v2', 'prism', client.teamId, objectType, 'import'],
    ...(typeof body === 'string' || Buffer.isBuffer(body)
      ? { rawBody: body, contentType: 'application/json' }
      : { body }),
    idempotencyKey: opts.idempotencyKey,
    signal: opts.signal,
  });
  return {
    status: res.status,
    job: res.body,
    location: res.headers.location,
    requestId: res.requestId,
    replay: res.headers['idempotent-replay'] === 'true',
  };
}

/** GET /v2/prism/{teamId}/imports/{jobId}: 404 once the job has expired (7 days). */
export async function getImportJob(
  client: ApiClient,
  jobId: string,
  opts: { signal?: AbortSignal | undefined } = {},
): Promise<ImportJob> {
  const res = await client.request<ImportJob>({
    method: 'GET',
    path: ['v2', 'prism', client.teamId, 'imports', jobId],
    signal: opts.signal,
  });
  return res.body;
}
