// The webhook flags of `ws sandbox start`, read into the sandbox's webhook options: the
// gateway's preview 403, the service's strict address rule, the attempt timeout and the
// retry delays (see docs/sandbox.md).

import { UsageError } from '../../errors.ts';
import { intFlag } from '../common/flags.ts';

/** Longest attempt timeout and retry delay the flags take: one hour (as the sandbox). */
const MAX_MS = 3_600_000;

export interface WebhookFlags {
  preview: boolean;
  strictAddresses: boolean;
  timeoutMs?: number | undefined;
  retryDelaysMs?: number[] | undefined;
}

/** The webhook options the flags ask for; a bad value is a UsageError naming its flag. */
export function webhookFlags(o: Record<string, unknown>): WebhookFlags {
  const delays = o['webhookRetryDelays'] as string | undefined;
  let retryDelaysMs: number[] | undefined;
  if (delays !== undefined) {
    const parts = delays.split(',');
    if (parts.length !== 2) {
      throw new UsageError(
        `--webhook-retry-delays takes two delays in milliseconds, "FIRST,SECOND", not "${delays}".`,
        'For example --webhook-retry-delays 100,200 (the defaults are 30000,120000).',
      );
    }
    retryDelaysMs = parts.map((part) => intFlag('--webhook-retry-delays', part.trim(), 0, MAX_MS)!);
  }
  return {
    preview: o['webhooksPreview'] === true,
    strictAddresses: o['strictWebhookUrls'] === true,
    timeoutMs: intFlag('--webhook-timeout', o['webhookTimeout'] as string | undefined, 1, MAX_MS),
    retryDelaysMs,
  };
}
