// A 412 from If-Match, explained: the record changed since the etag was read.
import { ApiError } from '../../errors.ts';

/** The error to report for `err`: a 412 gets a hint on how to go on; others pass through. */
export function preconditionFailed(
  err: unknown,
  type: string,
  id: string,
  verb: 'update' | 'delete',
): unknown {
  if (!(err instanceof ApiError) || err.status !== 412) return err;
  return new ApiError({
    status: err.status,
    ...(err.apiCode ? { code: err.apiCode } : {}),
    message: `The ${type} record ${id} changed since that etag was read, so it was not ${verb === 'update' ? 'updated' : 'deleted'} (412).`,
    ...(err.requestId ? { requestId: err.requestId } : {}),
    errors: err.errors,
    method: err.method,
    url: err.url,
    hint: `Read it again (\`ws records get ${type} ${id} --json\` shows the current etag), check what changed, and retry with that etag.`,
  });
}
