// `ws webhooks doctor URL`: test a receiver as a careful sender would (src/webhooks/
// doctor.ts has the checks). One verdict line per check; exit 0 only when all pass.
import { randomBytes, randomUUID } from 'node:crypto';
import { WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import type { Column } from '../../output/format.ts';
import { createRowWriter } from '../../output/render.ts';
import { type CheckResult, runDoctor } from '../../webhooks/doctor.ts';
import { readSecret } from '../../webhooks/secret.ts';
import { webhookOf } from '../common/find-webhook.ts';
import { checkReceiverUrl } from '../common/receiver-url.ts';

export interface DoctorOptions {
  url: string;
  secretFile?: string | undefined;
  /** A webhook whose id and verification token the test requests carry. */
  webhook?: string | undefined;
  /** Seconds the receiver has to answer each request (default 10). */
  maxTime?: number | undefined;
}

const columns: Column<CheckResult>[] = [
  { key: 'check' },
  { key: 'passed' },
  { key: 'status' },
  { key: 'ms' },
  { key: 'detail' },
];

export async function run(opts: DoctorOptions, deps: Deps): Promise<void> {
  const url = new URL(checkReceiverUrl(opts.url, 'URL'));
  const secret = await readSecret(deps, opts.secretFile, 'to sign the test deliveries');
  let webhookId: string = randomUUID();
  let token = `whtok_${randomBytes(16).toString('hex')}`;
  if (opts.webhook !== undefined) {
    const w = await webhookOf(deps, await deps.client(), opts.webhook);
    webhookId = w.id;
    token = w.verification_token ?? token;
  }
  const timeoutMs = (opts.maxTime ?? 10) * 1000;
  const { io } = deps;
  const table = deps.format === 'table';
  const json = deps.format === 'json';
  const writer =
    table || json
      ? undefined
      : createRowWriter(io, columns, { format: deps.format, fields: deps.fields });
  if (table) io.info(`Testing ${url.href} (each request may take up to ${timeoutMs / 1000} s)…`);
  const results = await runDoctor(
    { url, secret, webhookId, token, timeoutMs, now: () => deps.clock.now(), signal: deps.signal },
    async (r) => {
      if (writer) await writer.write([r]);
      else if (table) {
        const c = io.out;
        io.println(`${r.passed ? c.green('✓') : c.red('✗')} ${r.check.padEnd(18)} ${r.detail}`);
      }
    },
  );
  await writer?.end();
  const failed = results.filter((r) => !r.passed);
  if (json) {
    io.println(
      JSON.stringify({ url: url.href, passed: failed.length === 0, checks: results }, null, 2),
    );
  }
  if (failed.length === 0) {
    io.success(`${url.href} passed all ${results.length} checks.`);
    return;
  }
  throw new WsError(
    `${url.href} failed ${failed.length} of ${results.length} checks: ${failed.map((r) => r.check).join(', ')}.`,
    { code: 'checks_failed', hint: 'Each failed line says what the receiver should do.' },
  );
}
