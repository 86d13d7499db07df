// The sandbox console in a real browser (Debian's Chromium, test/helpers/browser.ts): signed
// in with the one-time code `ws sandbox open` hands out, and refused without it or from a
// foreign Host; a CSV with bad rows imported by `ws import` shows in the live activity feed
// with the automation runs it fired; a run's page leads to its delivery, which is resent;
// the clock is advanced to the next due step and the wait finishes; records are filtered
// with --where and a record's history names what changed it; every page passes axe-core.
// One browser for the file. Run `npm run build` first (the console's page is dist/console,
// and `ws` is the built bin).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations, type Browser, docShot, launchChromium, step } from '../helpers/browser.ts';
import { sandboxCall, startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { BIN, wsEnv } from '../helpers/spawned.ts';
import { startReceiver, type TestReceiver } from '../helpers/webhook-receiver.ts';

const REBIND_HOST = 'rebind.test';
const CONTACT_VIEW = '6f9d3c1e-2b4a-4c8d-9e7f-1a2b3c4d5e6f';
const TEMPLATE = '0d3b5c7e-9f1a-4b2c-8d4e-6f7a8b9c0d1e';

let t: TestSandbox;
let receiver: TestReceiver;
let browser: Browser;
let page: Page;
let consoleUrl: string;
/** Receiver answers: 500 until the test says otherwise. */
let receiverUp = false;
let webhookId: string;

/** `ws` run as a user runs it (spawned: the sandbox answers it from this process). */
function ws(
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: wsEnv(t.configDir, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A fresh one-time code, as `ws sandbox open --no-browser --json` prints it. */
async function newCode(): Promise<string> {
  const r = await ws(['sandbox', 'open', '--no-browser', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { url: string; code: string; opened: boolean };
  assert.equal(out.opened, false);
  assert.equal(out.url, consoleUrl);
  return out.code;
}

async function call(method: string, path: string, body?: unknown) {
  const r = await sandboxCall(t, method, path, body);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Wait until `fn` holds (polling), or fail saying what was awaited. */
async function until(what: string, fn: () => Promise<boolean> | boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A GET with a Host header of our choosing (fetch would not send another). */
function getWithHost(path: string, host: string): Promise<number> {
  const url = new URL(path, t.sandbox.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { host } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  t = await startTestSandbox({ console: true, webhooks: { retryDelaysMs: [50, 50] } });
  consoleUrl = `${t.sandbox.url}/console/`;
  receiver = await startReceiver((req) => {
    const challenge = req.url.searchParams.get('service_hook_challenge');
    if (req.method === 'GET' && challenge !== null) return { status: 200, body: challenge };
    return receiverUp
      ? { status: 200, body: '{"ok":true}' }
      : { status: 500, body: '{"error":"the receiver is down"}' };
  });
  const team = t.sandbox.teamId;
  const webhook = await call('POST', `/v2/webhooks/${team}`, {
    name: 'Customer feed',
    url: receiver.url,
  });
  webhookId = webhook.id;
  await until('the webhook to be verified', async () => {
    const w = await call('GET', `/v2/webhooks/${team}/${webhookId}`);
    return w.verified === true;
  });
  const props = await call('GET', `/v2/prism/${team}/contact/properties`);
  const email = Object.values(props.contact as Record<string, { id: string; slug: string }>).find(
    (d) => d.slug === 'email',
  )!;
  await call('PUT', `/__sandbox/contact_views/${CONTACT_VIEW}`, {
    name: 'Customers',
    filter: [{ status: { '=': 'customer' } }],
  });
  await call('POST', `/v2/prism/${team}/contact/triggered_automations`, {
    kind: 'lifecycle',
    name: 'Welcome customers',
    on_create: true,
    state: { filter: [{ status: { '=': 'customer' } }] },
    actions: [
      { type: 'webhook', webhook_id: webhookId },
      { type: 'wait', delay_seconds: 86400 },
      { type: 'webhook', webhook_id: webhookId },
    ],
  });
  await call('POST', `/v2/prism/${team}/contact/triggered_automations`, {
    kind: 'lifecycle',
    name: 'Email new customers',
    on_create: true,
    state: { filter: [{ status: { '=': 'customer' } }, { email: { exists: true } }] },
    actions: [
      {
        type: 'email',
        recipient_view_id: CONTACT_VIEW,
        recipient_view_object_type: 'contact',
        recipient_email_prop_def_id: email.id,
        send_as_user_id: 'user-ada',
        template_id: TEMPLATE,
        subject: 'Welcome aboard, {{ contact.name }}',
      },
    ],
  });
  browser = await launchChromium(`MAP ${REBIND_HOST} 127.0.0.1`);
  page = browser.page;
});

after(async () => {
  await browser?.close();
  await receiver?.close();
  await t?.stop();
});

describe('the sandbox console in Chromium', () => {
  it('signs in with the one-time code of `ws sandbox open`, and refuses without it or from a foreign Host', async () => {
    await step(page, 'sign-in', async () => {
      // Without a session: the sign-in form, and no data.
      const first = await page.goto(consoleUrl);
      assert.equal(first?.status(), 200);
      await page.getByRole('heading', { name: 'ws sandbox console' }).waitFor();
      await page.getByLabel('One-time code').waitFor();
      const refused = await page.evaluate(async () => {
        const res = await fetch('/console/api/activity');
        return { status: res.status, cors: res.headers.get('access-control-allow-origin') };
      });
      assert.deepEqual(refused, { status: 401, cors: null });
      await docShot(page, 'sign-in');

      // A wrong code is refused, and says why.
      await page.getByLabel('One-time code').fill('AAAA-BBBB-CCCC');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'That code is not valid' }).waitFor();

      // `ws sandbox open` opens a page that posts a fresh code: $BROWSER is given its file.
      const opened = join(t.configDir, 'opened.txt');
      const fakeBrowser = join(t.configDir, 'browser.sh');
      writeFileSync(fakeBrowser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
      chmodSync(fakeBrowser, 0o755);
      const open = await ws(['sandbox', 'open'], { BROWSER: fakeBrowser });
      assert.equal(open.code, 0, open.stderr);
      assert.equal(open.stdout, `${consoleUrl}\n`);
      await until('the browser to be started', () => {
        try {
          return readFileSync(opened, 'utf8') !== '';
        } catch {
          return false;
        }
      });
      const file = readFileSync(opened, 'utf8');
      assert.ok(!file.includes(t.sandbox.apiKey), 'the sign-in page holds no API key');
      await page.goto(`file://${file}`);
      await page.waitForURL(consoleUrl);
      await page.getByRole('heading', { name: 'Activity' }).waitFor();
      const cookies = await browser.context.cookies(consoleUrl);
      assert.equal(cookies.length, 1);
      assert.equal(cookies[0]!.httpOnly, true);
      assert.equal(cookies[0]!.sameSite, 'Strict');
      assert.equal(cookies[0]!.path, '/console');
      // The code is spent: the same page signs nobody in again.
      await browser.context.clearCookies();
      await page.goto(`file://${file}`);
      await page.getByRole('alert').filter({ hasText: 'That code is not valid' }).waitFor();

      // The code printed by --no-browser, typed into the form.
      await page.getByLabel('One-time code').fill((await newCode()).toLowerCase());
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Activity' }).waitFor();
      assert.ok(!page.url().includes('code'), 'no code in the URL');

      // A change without the CSRF token is refused, even with the session cookie.
      const csrf = await page.evaluate(async () => {
        const res = await fetch('/console/api/reset', { method: 'POST', body: '{}' });
        return res.status;
      });
      assert.equal(csrf, 403);

      // A page of another site that resolves to this sandbox (DNS rebinding) is refused.
      const port = new URL(t.sandbox.url).port;
      const rebound = await page.goto(`http://${REBIND_HOST}:${port}/console/`);
      assert.equal(rebound?.status(), 421);
      assert.equal(await getWithHost('/console/api/session', `evil.example:${port}`), 421);
      assert.equal(await getWithHost('/console/api/session', `localhost:${port}`), 401);
      // The API answers as before, whatever the Host.
      assert.equal(await getWithHost('/__sandbox/health', `evil.example:${port}`), 200);
      await page.goto(consoleUrl);
      await page.getByRole('heading', { name: 'Activity' }).waitFor();
    });
  });

  it('shows a CSV import with bad rows live: its progress and failures, the records, the runs', async () => {
    await step(page, 'import-feed', async () => {
      await page.goto(`${consoleUrl}#/activity`);
      await page.getByRole('heading', { name: 'Activity' }).waitFor();
      // Watch the imports (the runs and deliveries that follow soon fill a page).
      await page.getByLabel('Kind').selectOption('import');
      const rows = ['name,email,status,score,organization'];
      for (let i = 0; i < 120; i++) {
        rows.push(
          [
            `Person ${i}`,
            `person${i}@example.com`,
            i % 10 === 0 ? 'customer' : 'lead',
            i === 7 ? 'lots' : String(i),
            // A reference to no record: only the sandbox can tell, so the row fails there.
            i === 51 ? '4b8c6c2e-0000-4000-8000-000000000000' : '',
          ].join(','),
        );
      }
      const csv = join(t.configDir, 'people.csv');
      writeFileSync(csv, `${rows.join('\n')}\n`);
      const imported = await ws(['import', 'contact', csv]);
      // Two rows failed: one refused by ws (not a number), one by the sandbox.
      assert.equal(imported.code, 5, imported.stderr);
      // The feed shows it without a reload.
      const job = page.locator('.entry.import').filter({ hasText: 'finished' });
      await job.waitFor();
      const text = await job.innerText();
      assert.match(text, /of 119 contact rows finished/);
      assert.match(text, /119 of 119 processed, 118 imported, 1 failed/);
      await job.getByText('Failed rows').click();
      await job.getByText(/Object 51: not_found: .*no organization record has the id/).waitFor();
      assert.match(text, /by POST \/v2\/prism\/[\w-]+\/contact\/import/);
      // Each customer (12) fired two automations.
      await page.getByLabel('Kind').selectOption('run');
      // A run that ends (the email one, rendered off the server's thread) has a second entry.
      const runIds = async () =>
        new Set(
          await page
            .locator('.entry.run a[href^="#/runs/"]')
            .evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
        );
      await until('the 24 runs in the feed', async () => (await runIds()).size === 24);
      const kinds = await page.locator('.feed .kind').allInnerTexts();
      assert.ok(kinds.every((k) => k.toLowerCase() === 'run'));
      const run = page.locator('.entry.run').filter({ hasText: 'Welcome customers' }).first();
      assert.match(await run.innerText(), /webhook[\s\S]*wait[\s\S]*waiting/);
      await page.getByLabel('Kind').selectOption('record');
      const created = page.locator('.entry.record').filter({ hasText: 'Person 119' });
      assert.match(await created.innerText(), /created by import job imp_/);
      await page.getByLabel('Kind').selectOption('');
      await page.locator('.entry.delivery').first().waitFor();
      await docShot(page, 'activity');
    });
  });

  it('opens a run and its delivery, resends it, and finishes the wait by advancing the clock', async () => {
    await step(page, 'run-delivery', async () => {
      await page.goto(`${consoleUrl}#/automations`);
      await page.getByText('--on-create').first().waitFor();
      // The rule in the words of `ws automations get`.
      const rule = await page
        .locator('.automations > li')
        .filter({ hasText: 'Welcome customers' })
        .innerText();
      assert.match(rule, /--where status=customer/);
      assert.match(rule, /--webhook 'Customer feed'/);
      assert.match(rule, /--wait 1d/);
      await docShot(page, 'automations');
      await page.locator('table a[href^="#/runs/"]').last().click();
      await page.getByRole('heading', { name: /^Run run_/ }).waitFor();
      const runUrl = page.url();
      await page.getByText('Waiting until').waitFor();
      // The first step's delivery failed three times (the receiver answers 500).
      const link = page.locator('a[href^="#/deliveries/"]').first();
      await until('the delivery to be dead-lettered', async () => {
        await link.click();
        await page.getByRole('heading', { name: /Delivery of contact.created/ }).waitFor();
        const n = await page.locator('.attempts > li').count();
        if (n < 3) await page.goBack();
        return n === 3;
      });
      const attempt = await page.locator('.attempts > li').first().innerText();
      assert.match(attempt, /answered 500/);
      assert.match(attempt, /x-service-signature\s+t=\d+,v1=[0-9a-f]{64}/);
      assert.match(attempt, /the receiver is down/);
      assert.ok(!attempt.includes('whsec_'), 'no signing secret on the page');
      await page.getByText('"event": "contact.created"').waitFor();
      // Resend, now that the receiver is up: a fourth attempt, which succeeds.
      receiverUp = true;
      await page.getByRole('button', { name: 'Resend' }).click();
      await until(
        'the fourth attempt',
        async () => (await page.locator('.attempts > li').count()) === 4,
      );
      await page.locator('.attempts > li').nth(3).getByText('answered 200').waitFor();
      await docShot(page, 'delivery');
      // Back to the run: advance the clock to its due step.
      await page.goto(runUrl);
      await page.getByText('Waiting until').waitFor();
      await page.getByRole('button', { name: 'Advance the clock to the next due step' }).click();
      await page.getByRole('heading', { name: /^Run run_\S+ completed/ }).waitFor();
      await page.getByText('Waited until').waitFor();
      const steps = await page.locator('.run-steps').innerText();
      assert.match(steps, /Step 3: webhook\s*dispatched/);
    });
  });

  it('filters records with --where, sorts them, and shows a record history with its causes', async () => {
    await step(page, 'records', async () => {
      await page.goto(`${consoleUrl}#/records/contact`);
      await page.getByRole('heading', { name: 'Records: contact' }).waitFor();
      await page.getByLabel(/Filter/).fill('status=customer\nscore<50');
      await page.getByRole('button', { name: 'Apply filter' }).click();
      await page.getByText('5 records match').waitFor();
      await page.getByRole('button', { name: 'Sort by Name' }).click();
      await page.locator('th[aria-sort="ascending"]').waitFor();
      const names = await page.locator('table.records tbody tr td:nth-child(2)').allInnerTexts();
      assert.deepEqual(names, ['Person 0', 'Person 10', 'Person 20', 'Person 30', 'Person 40']);
      await docShot(page, 'records');
      // The --where language's own messages.
      await page.getByLabel(/Filter/).fill('nosuch=1');
      await page.getByRole('button', { name: 'Apply filter' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /nosuch/ })
        .waitFor();
      // From the keyboard alone: the sections are links in the tab order, and Ctrl+Enter
      // applies the filter.
      await page.goto(`${consoleUrl}#/activity`);
      await page.reload();
      await page.getByRole('heading', { name: 'Activity' }).waitFor();
      const focusedText = () =>
        // biome-ignore lint/suspicious/noExplicitAny: the page's globals, in the browser
        page.evaluate(() => (globalThis as any).document.activeElement?.textContent ?? '');
      for (let i = 0; i < 12 && (await focusedText()) !== 'Records'; i++) {
        await page.keyboard.press('Tab');
      }
      assert.equal(await focusedText(), 'Records');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Records' }).waitFor();
      // Applied before the page has the properties (their answer held back here), the
      // filter waits for them instead of calling every slug unknown.
      let releaseSchema = () => {};
      const schemaHeld = new Promise<void>((resolve) => {
        releaseSchema = resolve;
      });
      await page.route('**/records/contact/schema', async (route) => {
        await schemaHeld;
        await route.continue();
      });
      await page.goto(`${consoleUrl}#/records/contact`);
      await page.getByLabel(/Filter/).focus();
      await page.keyboard.type('status=customer');
      await page.keyboard.press('Control+Enter');
      releaseSchema();
      await page.getByText('12 records match').waitFor();
      assert.equal(
        await page
          .getByRole('alert')
          .filter({ hasText: /Unknown property/ })
          .count(),
        0,
      );
      await page.unroute('**/records/contact/schema');
      await page.locator('table.records tbody a').first().click();
      await page.getByRole('heading', { name: /contact Person/ }).waitFor();
      const history = page.locator('.history');
      await history.getByText(/created \(import\) by import job imp_/).waitFor();
      // A change through the API shows up live, with the request that made it.
      const id = page.url().split('/').pop()!;
      await call('PATCH', `/v2/prism/${t.sandbox.teamId}/contact/${id}`, {
        default: { score: 999, title: 'Chief Customer' },
      });
      const update = history.locator('li').filter({ hasText: 'updated (patch)' });
      await update.waitFor();
      const text = await update.innerText();
      assert.match(text, /by PATCH \/v2\/prism\/[\w-]+\/contact\/[\w-]+/);
      assert.match(text, /score\s+\d+\s+999/);
      assert.match(text, /title\s+no value\s+"Chief Customer"/);
      await docShot(page, 'record');
      await update.getByRole('link', { name: /PATCH/ }).click();
      await page.getByRole('heading', { name: /PATCH \/v2\/prism/ }).waitFor();
      const request = await page.locator('main').innerText();
      assert.match(request, new RegExp(`…${t.sandbox.apiKey.slice(-4)}`));
      assert.match(request, /"Chief Customer"/);
      assert.ok(!(await page.content()).includes(t.sandbox.apiKey), 'no API key on the page');
    });
  });

  it('passes an axe-core scan of every page: no serious or critical violation', async () => {
    const pages: [string, string][] = [
      ['activity', '#/activity'],
      ['records', '#/records/contact'],
      ['automations', '#/automations'],
      ['outbox', '#/outbox'],
      ['webhooks', '#/webhooks'],
      ['requests', '#/requests'],
      ['controls', '#/controls'],
    ];
    const problems: string[] = [];
    // Every part of the page has read its data (polled: the page's CSP forbids eval, which
    // waitForFunction would need).
    const loaded = () =>
      until('the page to load', () =>
        page.evaluate(
          // biome-ignore lint/suspicious/noExplicitAny: the page's globals, in the browser
          () => !(globalThis as any).document.querySelector('main').innerText.includes('Loading'),
        ),
      );
    const scan = async (name: string) => {
      for (const v of await axeViolations(page)) {
        if (v.impact === 'serious' || v.impact === 'critical') {
          problems.push(`${name}: ${v.id} (${v.impact}): ${v.help} at ${v.nodes.join(', ')}`);
        }
      }
      assert.ok(!(await page.content()).includes(t.sandbox.apiKey), `${name}: no API key`);
    };
    await step(page, 'axe', async () => {
      for (const [name, hash] of pages) {
        await page.goto(`${consoleUrl}${hash}`);
        await page.locator('main h2').first().waitFor();
        await loaded();
        await scan(name);
      }
      // The pages behind links: a record, a run, a delivery, a request, a message.
      await page.goto(`${consoleUrl}#/outbox`);
      await page.locator('button.message').first().click();
      await page.locator('.message-view').waitFor();
      assert.match(await page.locator('.message-view').innerText(), /Welcome aboard, Person \d+/);
      await docShot(page, 'outbox');
      await scan('a message');
      for (const [name, from, link] of [
        ['a record', '#/records/contact', 'table.records tbody a'],
        ['a run', '#/automations', 'table a[href^="#/runs/"]'],
        ['a delivery', '#/webhooks', 'table a[href^="#/deliveries/"]'],
        ['a request', '#/requests', 'table a[href^="#/requests/"]'],
      ] as const) {
        await page.goto(`${consoleUrl}${from}`);
        await page.locator(link).first().click();
        await page.locator('main h2').first().waitFor();
        await loaded();
        await scan(name);
      }
      await browser.context.clearCookies();
      await page.goto(consoleUrl);
      await page.getByLabel('One-time code').waitFor();
      await scan('sign-in');
      assert.deepEqual(problems, []);
    });
  });
});
