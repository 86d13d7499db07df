// When a wait step of an automation ends: `delay_seconds` after it starts, or the next time
// a 5-field cron expression (minute hour day-of-month month day-of-week, read by croner: when
// both day fields are restricted either one matches, as in Vixie cron) matches in the
// step's IANA time zone (UTC when none is given), daylight-saving changes included. Shared by
// the sandbox, which suspends runs on its clock, and the CLI, which checks automations.

import { Cron } from 'croner';

/** Why `zone` is not an IANA time zone name; undefined when it is one. */
export function timeZoneProblem(zone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return undefined;
  } catch {
    return `'${zone}' is not an IANA time zone name (like Europe/Paris or America/New_York).`;
  }
}

/** Why `expression` is not a 5-field cron expression that ever matches; undefined when it is. */
export function cronProblem(expression: string, zone?: string): string | undefined {
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
  if (cron.nextRun() === null) return `'${expression}' matches no date to come.`;
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
