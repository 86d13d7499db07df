// How `ws deliveries get` shows a delivery to a person: its fields, then each attempt with
// its outcome and both bodies, JSON pretty-printed, a body the log cut marked as such.
import type { DeliveryAttempt, DeliveryDetail } from '../../api/webhooks.ts';
import type { IOStreams } from '../../io/streams.ts';

/** A body as people read it: JSON indented, other text as it is. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => `${by}${l}`.trimEnd())
    .join('\n');
}

function bodyBlock(
  io: IOStreams,
  label: string,
  body: string | null | undefined,
  truncated: boolean | undefined,
): string[] {
  if (body === null || body === undefined) return [];
  const c = io.out;
  const head = `  ${c.bold(label)}${truncated ? c.yellow(' (truncated: the log keeps only the first 64 KiB)') : ''}`;
  if (body === '') return [head, c.dim('    (empty)')];
  const lines = [head, indent(prettyBody(body), '    ')];
  if (truncated) lines.push(c.yellow('    … cut here'));
  return lines;
}

function attemptBlock(io: IOStreams, a: DeliveryAttempt): string {
  const c = io.out;
  const status =
    a.status === 'success' ? c.green(a.status) : a.status === 'failed' ? c.red(a.status) : a.status;
  const code = a.status_code !== null && a.status_code !== undefined ? `  ${a.status_code}` : '';
  const took = a.duration_ms !== undefined ? `  ${a.duration_ms}ms` : '';
  const lines = [`${c.bold(`Attempt ${a.attempt}`)}  ${a.created_at}  ${status}${code}${took}`];
  if (a.error) lines.push(`  ${c.bold('error')}  ${a.error}`);
  lines.push(...bodyBlock(io, 'request body', a.request_body, a.request_body_truncated));
  lines.push(...bodyBlock(io, 'response body', a.response_body, a.response_body_truncated));
  return lines.join('\n');
}

/** The attempts, after the fields (which the output layer prints). */
export function attemptsText(io: IOStreams, d: DeliveryDetail): string {
  if (d.attempt_history.length === 0) return `\n${io.out.dim('No attempt has ended yet.')}\n`;
  return `\n${d.attempt_history.map((a) => attemptBlock(io, a)).join('\n\n')}\n`;
}
