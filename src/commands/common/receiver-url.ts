// The address a webhook's deliveries go to, as a flag gives it (`ws webhooks create --url`,
// `ws deliveries replay --to`, ...).
import { UsageError } from '../../errors.ts';

/** A receiver's URL as the API takes it (absolute, http or https), or a usage error. */
export function checkReceiverUrl(value: string, flag = '--url'): string {
  const given = value.trim();
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(
      `${flag} "${given}" is not an absolute URL.`,
      'Give one like https://hooks.example.com/ws or http://127.0.0.1:3000/hooks.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} "${given}" must start with http:// or https://.`);
  }
  return given;
}
