// When a wait step of an automation ends: `delay_seconds` after it starts, or the next time
// a 5-field cron expression (minute hour day-of-month month day-of-week, read by croner: when
// both day fields are restricted either one matches, as in Vixie cron) matches in the
// step's IANA time zone (UTC when none is given), daylight-saving changes included. Shared by
// the sandbox, which suspends runs on its clock, and the CLI, which checks automations.

//
// Every wait ends within MAX_WAIT_SECONDS (a year, leap years included) of its start: a
// `delay_seconds` beyond it is refused by the API contract, a cron expression whose next
// match is further away is refused when the automation is checked, and a wait whose end
// would be further away when it starts (a cron expression for 29 February) fails its step.
// So every time a run keeps is a date that JSON and the data file can hold.

import { Cron } from 'croner';

/** The longest a wait may last: 366 days, in seconds. */
export const MAX_WAIT_SECONDS = 366 * 24 * 3600;

/** Why `zone` is not an IANA time zone name of a region (or UTC); undefined when it is one. */
export function timeZoneProblem(zone: string): string | undefined {
  const example = '(like Europe/Paris, America/New_York or UTC)';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return `'${zone}' is not an IANA time zone name ${example}.`;
  }
  // Legacy names (EST5EDT, CET, EST) and offsets (+05:00) follow no region's rules.
  if (zone !== 'UTC' && !zone.includes('/')) {
    return `'${zone}' is not the name of a region's time zone: use the IANA name of the place whose clock the schedule follows ${example}.`;
  }
  return undefined;
}

/**
 * Why `expression` is not a 5-field cron expression whose next match after `nowMs` (epoch ms)
 * is at most a year away; undefined when it is.
 */
export function cronProblem(
  expression: string,
  zone?: string,
  nowMs: number = Date.now(),
): string | undefined {
  const fields = expression.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5) {
    return `'${expression}' is not a cron expression of 5 fields (minute hour day-of-month month day-of-week, like '0 9 * * 1'); it has ${fields.length}.`;
  }
  let cron: Cron;
  try {
    cron = cronOf(expression, zone);
  } catch (err) {
    return `'${expression}' is not a valid cron expression: ${(err as Error).message}.`;
  }
  const next = cron.nextRun(new Date(nowMs));
  if (next === null) return `'${expression}' matches no date to come.`;
  if (next.getTime() - nowMs > MAX_WAIT_SECONDS * 1000) {
    return `'${expression}' next matches on ${next.toISOString()}, more than a year (366 days) away: a wait ends at most a year after it starts.`;
  }
  return undefined;
}

/** The first time after `afterMs` (epoch ms) that the expression matches; undefined: never. */
export function nextCronTime(
  expression: string,
  zone: string | undefined,
  afterMs: number,
): number | undefined {
  const next = cronOf(expression, zone).nextRun(new Date(afterMs));
  return next === null ? undefined : next.getTime();
}

function cronOf(expression: string, zone: string | undefined): Cron {
  return new Cron(expression.trim(), { timezone: zone ?? 'UTC', domAndDow: false });
}
