// Typed calls for record endpoints (more arrive with the records work).
import type { ApiClient } from './client.ts';
import type { RecordType } from './object-types.ts';
import type { AnswerOf, QueryOf } from './types.ts';

export type CountAnswer = AnswerOf<'countRecords', 200>;

/** GET /v2/prism/{teamId}/{objectType}/count: records visible to the caller (filters do not apply). */
export async function countRecords(
  client: ApiClient,
  objectType: RecordType,
  opts: { listId?: string | undefined; signal?: AbortSignal } = {},
): Promise<{ total: number; requestId: string | undefined }> {
  const res = await client.request<CountAnswer>({
    method: 'GET',
    path: ['v2', 'prism', client.teamId, objectType, 'count'],
    query: { list_id: opts.listId } satisfies QueryOf<'countRecords'>,
    signal: opts.signal,
  });
  return { total: res.body.total, requestId: res.requestId };
}
