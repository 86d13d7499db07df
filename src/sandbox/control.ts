// Control endpoints: documented sandbox extensions under /__sandbox/, never subject to
// faults or rate limits.
//
//   GET  /__sandbox/health           no key: { ok }; with the key: { ok, team_id, started_at,
//                                    pid, version } (nothing about the sandbox to strangers)
//   POST /__sandbox/reset            empty the store (body { "seed": "demo" } refills it); 204
//   GET  /__sandbox/clock            { now }
//   POST /__sandbox/clock/advance    body { seconds } → { now }; announced (clockEvents) first
//   GET  /__sandbox/echo/...         { segments, query }: how the path arrived, decoded
//   GET  /__sandbox/faults           current faults
//   POST /__sandbox/faults           body with any of fail_rate, fail_after_commit,
//                                    latency_ms, rate_limit, max_body_bytes → current faults
//   GET  /__sandbox/snapshot         the snapshot of the sandbox's teams (snapshot.ts)
//   POST /__sandbox/seed             records written firing nothing (records/seed.ts)

import { isPlainObject } from '../util/guards.ts';
import type { FieldError } from './errors.ts';
import { invalidRequest } from './errors.ts';
import { checkFaultSettings, type FaultSettings, type Faults } from './faults.ts';
import type { ControlRoute, Reply, RequestContext, SandboxRuntime } from './resource.ts';

/** Largest clock step accepted: 100 years keeps every date valid. */
const MAX_ADVANCE_SECONDS = 100 * 365.25 * 24 * 60 * 60;

const FAULT_FIELDS: Record<string, keyof FaultSettings> = {
  fail_rate: 'failRate',
  fail_after_commit: 'failAfterCommit',
  latency_ms: 'latencyMs',
  rate_limit: 'rateLimit',
  max_body_bytes: 'maxBodyBytes',
};

export const controlRoutes: ControlRoute[] = [
  { kind: 'control', method: 'GET', path: '/__sandbox/health', auth: 'none', handler: health },
  { kind: 'control', method: 'POST', path: '/__sandbox/reset', handler: reset },
  { kind: 'control', method: 'GET', path: '/__sandbox/clock', handler: clock },
  { kind: 'control', method: 'POST', path: '/__sandbox/clock/advance', handler: advanceClock },
  { kind: 'control', method: 'GET', path: '/__sandbox/echo/{...segments}', handler: echo },
  { kind: 'control', method: 'GET', path: '/__sandbox/faults', handler: getFaults },
  { kind: 'control', method: 'POST', path: '/__sandbox/faults', handler: setFaults },
  { kind: 'control', method: 'GET', path: '/__sandbox/snapshot', handler: snapshot },
];

/**
 * The snapshot (snapshot.ts): of every team to the first team's key (the sandbox's own, as
 * `ws sandbox start` saves it in the profile `sandbox`), of its own team to another's.
 */
function snapshot(ctx: RequestContext): Reply {
  const owner = ctx.sandbox.teams[0]!.id === ctx.teamId;
  return { status: 200, body: ctx.sandbox.snapshot(owner ? undefined : [ctx.teamId]) };
}

function health(ctx: RequestContext): Reply {
  if (!ctx.authenticated) return { status: 200, body: { ok: true } };
  return {
    status: 200,
    body: {
      ok: true,
      team_id: ctx.teamId,
      started_at: ctx.sandbox.startedAt,
      pid: process.pid,
      version: ctx.sandbox.version,
    },
  };
}

function reset(ctx: RequestContext): Reply {
  const body = objectBody(ctx, ['seed']);
  const seed = body['seed'];
  if (seed !== undefined && seed !== 'demo') {
    throw fieldProblem(
      'body.seed',
      `seed must be 'demo' when given, got ${JSON.stringify(seed)}.`,
      'enum',
    );
  }
  ctx.sandbox.reset(seed === 'demo' ? { seed } : {});
  return { status: 204 };
}

function clock(ctx: RequestContext): Reply {
  return { status: 200, body: { now: ctx.store.clock.iso() } };
}

function advanceClock(ctx: RequestContext): Reply {
  const body = objectBody(ctx, ['seconds']);
  moveClock(ctx.sandbox, body['seconds']);
  return { status: 200, body: { now: ctx.store.clock.iso() } };
}

/**
 * Move the sandbox clock (every team's) forward by `seconds` (a 400 naming body.seconds when
 * it is not a number from 0 to MAX_ADVANCE_SECONDS), announced on each team's spine
 * (clockEvents): waiting runs that fell due proceed before this returns. The console's clock
 * control calls it too.
 */
export function moveClock(runtime: SandboxRuntime, seconds: unknown): void {
  if (seconds === undefined) {
    throw fieldProblem(
      'body.seconds',
      'seconds is required: how far to move the clock forward.',
      'required',
    );
  }
  const code =
    typeof seconds !== 'number' || !Number.isFinite(seconds)
      ? 'type'
      : seconds < 0
        ? 'minimum'
        : seconds > MAX_ADVANCE_SECONDS
          ? 'maximum'
          : undefined;
  if (code !== undefined) {
    throw fieldProblem(
      'body.seconds',
      `seconds must be a number from 0 to ${MAX_ADVANCE_SECONDS} (the clock only moves forward), got ${JSON.stringify(seconds)}.`,
      code,
    );
  }
  runtime.advanceClock(seconds as number);
}

function echo(ctx: RequestContext): Reply {
  return { status: 200, body: { segments: [...ctx.rest], query: ctx.query } };
}

function getFaults(ctx: RequestContext): Reply {
  return { status: 200, body: ctx.sandbox.faults.toJSON() };
}

function setFaults(ctx: RequestContext): Reply {
  changeFaults(ctx.sandbox.faults, objectBody(ctx, Object.keys(FAULT_FIELDS)));
  return { status: 200, body: ctx.sandbox.faults.toJSON() };
}

/** The fault fields a body may set (snake_case, as the control endpoint takes them). */
export const FAULT_BODY_FIELDS = Object.keys(FAULT_FIELDS);

/** Change the faults a body of FAULT_BODY_FIELDS sets (all checked first: a 400 names each problem). */
export function changeFaults(faults: Faults, body: Record<string, unknown>): void {
  const patch: Partial<Record<keyof FaultSettings, unknown>> = {};
  for (const [name, key] of Object.entries(FAULT_FIELDS)) {
    if (body[name] !== undefined) patch[key] = body[name];
  }
  const problems = checkFaultSettings(patch);
  if (problems.length > 0) {
    throw invalidRequest(
      `Invalid fault settings: ${problems.map((p) => p.message).join('; ')}.`,
      problems.map((p) => ({ field: `body.${p.name}`, message: p.message, code: p.code })),
    );
  }
  faults.update(patch as Partial<FaultSettings>);
}

/** The body as an object ({} when absent); unknown fields are a 400. Shared by control routes. */
export function objectBody(ctx: RequestContext, known: string[]): Record<string, unknown> {
  if (ctx.body === undefined) return {};
  if (!isPlainObject(ctx.body)) {
    throw fieldProblem('body', 'The request body must be a JSON object.', 'type');
  }
  const errors: FieldError[] = Object.keys(ctx.body)
    .filter((name) => !known.includes(name))
    .map((name) => ({
      field: `body.${name}`,
      message: `Unknown field '${name}'; known fields: ${known.join(', ')}.`,
      code: 'unknown_field',
    }));
  if (errors.length > 0) {
    throw invalidRequest(errors.map((e) => e.message).join(' '), errors);
  }
  return ctx.body;
}

/** A 400 invalid_request with one field error whose message is the answer's message. */
export function fieldProblem(field: string, message: string, code: string) {
  return invalidRequest(message, [{ field, message, code }]);
}
