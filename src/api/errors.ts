// Every non-2xx answer becomes one ApiError, whatever body it came with: the v2
// error body, the older `{ message }` form, or something that is not JSON at all.
import { ApiError, ExitCode, type FieldError } from '../errors.ts';
import { builtin } from '../util/builtin.ts';

// node:http's status texts, read when one is first needed (an error, a trace, `ws api -i`).
let statusCodes: Record<number, string | undefined> | undefined;

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  method: string;
  url: string;
  path: string;
  teamId?: string | undefined;
}

export function reason(status: number): string {
  statusCodes ??= builtin<typeof import('node:http')>('node:http').STATUS_CODES;
  return statusCodes[status] ?? '';
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function fieldErrors(v: unknown): FieldError[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((e): e is Record<string, unknown> => !!e && typeof e === 'object')
    .map((e) => ({
      field: str(e.field) ?? str(e.path) ?? '',
      message: str(e.message) ?? JSON.stringify(e),
      ...(str(e.code) ? { code: str(e.code) } : {}),
    }));
}

function bodySnippet(text: string): string {
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}

/** What ends ws's words of a 403 and starts the service's own (see refusedWhich). */
const REFUSED_MARK = 'HTTP 403): ';

/**
 * A 403 refusal as the service said it, and which of the API key and the team it blames
 * (the API answers 403 for both, "an invalid key, or a key without access to the team"):
 * 'team' when it says the key has no access to the team, 'key' when it says the key is
 * invalid (unknown, revoked, expired), undefined when it does not tell.
 */
export function refusalOf(err: ApiError): { which: 'key' | 'team' | undefined; said: string } {
  const at = err.message.indexOf(REFUSED_MARK);
  const said = at < 0 ? err.message : err.message.slice(at + REFUSED_MARK.length);
  let which: 'key' | 'team' | undefined;
  if (
    /\bteam\b/i.test(said) &&
    /\b(no access|not a member|does not belong|not allowed)\b/i.test(said)
  )
    which = 'team';
  else if (
    /\bkey\b[^.]*\b(invalid|not valid|unknown|revoked|expired|incorrect|wrong)\b/i.test(said) ||
    /\b(invalid|unknown|revoked|expired|incorrect|wrong)\b[^.]*\bkey\b/i.test(said)
  )
    which = 'key';
  return { which, said };
}

export function toApiError(ans: RawAnswer): ApiError {
  let parsed: unknown;
  try {
    parsed = ans.text === '' ? undefined : JSON.parse(ans.text);
  } catch {
    parsed = undefined;
  }
  let code: string | undefined;
  let message: string | undefined;
  let requestId = ans.headers['x-request-id'];
  let errors: FieldError[] = [];
  let details: unknown;
  if (parsed && typeof parsed === 'object') {
    const obj = parsed as Record<string, unknown>;
    const inner = obj.error;
    if (inner && typeof inner === 'object') {
      const e = inner as Record<string, unknown>;
      code = str(e.code);
      message = str(e.message);
      requestId = requestId ?? str(e.request_id);
      errors = fieldErrors(e.errors);
      details = e.details;
    } else {
      message = str(obj.message) ?? str(obj.error) ?? str(obj.detail) ?? str(obj.title);
      code = str(obj.code);
      errors = fieldErrors(obj.errors);
    }
  }
  if (!message) {
    const snippet = ans.text ? bodySnippet(ans.text) : '';
    message = `HTTP ${ans.status} ${reason(ans.status)}`.trim() + (snippet ? `: ${snippet}` : '');
  }

  const base = { status: ans.status, requestId, errors, details, method: ans.method, url: ans.url };

  // The gateway answers webhook routes with 403 "Missing Authentication Token" while they are a preview.
  if (
    ans.status === 403 &&
    /^\/v2\/webhooks(\/|$)/.test(ans.path) &&
    /authentication token/i.test(message)
  ) {
    return new ApiError({
      ...base,
      exitCode: ExitCode.error,
      code: 'webhooks_unavailable',
      message: `Webhook routes are not yet available on this service (the gateway answered 403: ${message}).`,
      hint: 'This is not a problem with your API key: the webhook API is still a preview on the hosted service.',
    });
  }

  let hint: string | undefined;
  if (ans.status >= 300 && ans.status < 400) {
    const location = ans.headers['location'];
    message = `The service answered ${ans.status} ${reason(ans.status)}, redirecting to ${location ? location : '(no Location header)'}; ws does not follow redirects, so the API key is only ever sent to ${new URL(ans.url).origin}.`;
    hint =
      'If the API has moved, update the base URL of the profile (`ws profile add NAME --base-url URL`).';
  }
  switch (ans.status) {
    case 401:
      message = `No API key was sent, or the service did not receive it (HTTP 401): ${message}`;
      hint = 'Set WS_API_KEY or store a key with `ws profile add NAME --with-key`.';
      break;
    case 403:
      message = `The API key was refused: it is invalid, or it has no access to team ${ans.teamId ?? 'in the path'} (${REFUSED_MARK}${message}`;
      hint =
        'Check the key and team id with `ws auth status`; a new key can be generated in the workspace settings (API section).';
      break;
    case 405:
      hint = 'The service does not offer this operation.';
      break;
    case 429:
      hint =
        "The service limits each key to a number of requests per second; lower the profile's rate_limit or try again later.";
      break;
    default:
      if (ans.status >= 500)
        hint = 'The service failed; try again. If it keeps failing, quote the request id.';
  }
  return new ApiError({ ...base, code, message, hint });
}

/**
 * A 404 or 405 on an operation the service does not offer, as one `operation_unavailable`
 * error (exit 1) whose message `says` from that answer; any other error is returned as it is.
 */
export function notOffered(
  err: unknown,
  says: (answer: ApiError) => string,
  hint: string,
): unknown {
  if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 405)) return err;
  return new ApiError({
    status: err.status,
    code: 'operation_unavailable',
    message: says(err),
    hint,
    requestId: err.requestId,
    method: err.method,
    url: err.url,
    exitCode: ExitCode.error,
  });
}
