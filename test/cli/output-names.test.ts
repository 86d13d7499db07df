// One set of names for scripts: every command's CSV header names its fields as --fields
// takes them (`created_at`, not a table's `CREATED`), and an error under --json carries the
// next step a person would read under the message, as `hint`.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWs, tempConfigDir } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { echoChallenge, startReceiver, type TestReceiver } from '../helpers/webhook-receiver.ts';

let t: TestSandbox;
let env: Record<string, string>;
let receiver: TestReceiver;
let dir: { dir: string; cleanup: () => void };

before(async () => {
  t = await startTestSandbox();
  env = { ...(t.env as Record<string, string>), NO_COLOR: '1' };
  receiver = await startReceiver((req) => echoChallenge(req) ?? { status: 200 });
  dir = tempConfigDir();
});
after(async () => {
  await receiver.close();
  dir.cleanup();
  await t.stop();
});

/** The header line of a command's CSV output. */
async function csvHeader(argv: string[]): Promise<string> {
  const r = await runWs([...argv, '--format', 'csv'], { env });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.split('\r\n')[0]!;
}

describe('CSV headers are the field names --fields takes', () => {
  it('profile list, webhooks list, deliveries list, views list and import jobs', async () => {
    assert.equal(
      await csvHeader(['profile', 'list']),
      'name,default,base_url,team_id,api_key,rate_limit',
    );

    const w = await runWs(
      ['webhooks', 'create', '--name', 'hook', '--url', receiver.url, '--wait', '--json'],
      { env },
    );
    assert.equal(w.code, 0, w.stderr);
    const webhooks = await csvHeader(['webhooks', 'list']);
    assert.match(webhooks, /^id,name,url,enabled,verified/);
    assert.doesNotMatch(webhooks, /[A-Z]/);
    const deliveries = await csvHeader(['deliveries', 'list']);
    assert.match(deliveries, /^delivery_id,event,status,status_code,attempts,.*created_at/);
    assert.doesNotMatch(deliveries, /[A-Z]/);

    const v = await runWs(['views', 'create', 'deal', '--name', 'Pipeline'], { env });
    assert.equal(v.code, 0, v.stderr);
    const views = await csvHeader(['views', 'list', 'deal']);
    assert.match(views, /^id,name,view_type,/);
    assert.doesNotMatch(views, /[A-Z]/);

    const file = join(dir.dir, 'people.csv');
    writeFileSync(file, 'name,email\nAda,ada@example.com\n');
    const imp = await runWs(['import', 'contacts', file], { env });
    assert.equal(imp.code, 0, imp.stderr);
    assert.equal(
      await csvHeader(['import', 'jobs']),
      'job_id,object_type,file,lines,rows,started_at',
    );

    // Each header word is a field --fields takes.
    for (const argv of [
      ['profile', 'list'],
      ['webhooks', 'list'],
      ['deliveries', 'list'],
      ['views', 'list', 'deal'],
      ['import', 'jobs'],
    ]) {
      const fields = await csvHeader(argv);
      const r = await runWs([...argv, '--fields', fields, '--format', 'csv'], { env });
      assert.equal(r.code, 0, `${argv.join(' ')} --fields ${fields}: ${r.stderr}`);
      assert.equal(r.stdout.split('\r\n')[0], fields);
    }
  });

  it('a table keeps capitals for people', async () => {
    const r = await runWs(['profile', 'list'], { env, tty: true });
    assert.match(r.stdout, /BASE URL/);
  });
});

describe('JSON errors carry the hint', () => {
  it('an unknown command: the command it is close to', async () => {
    const r = await runWs(['records', 'lst', 'contacts', '--json'], { env });
    assert.equal(r.code, 2);
    const err = JSON.parse(r.stderr).error;
    assert.equal(err.message, "Unknown command 'lst' for `ws records`");
    assert.equal(err.hint, 'Did you mean `ws records list`?');
  });

  it('no profile: how to add one', async () => {
    const empty = tempConfigDir();
    try {
      const r = await runWs(['records', 'list', 'contacts', '--json'], {
        env: { WS_CONFIG_DIR: empty.dir },
      });
      assert.notEqual(r.code, 0);
      const err = JSON.parse(r.stderr).error;
      assert.match(err.hint, /^Add one with `ws profile add NAME/);
    } finally {
      empty.cleanup();
    }
  });

  it('an error without a next step has hint null', async () => {
    const r = await runWs(['import', 'contacts', 'people.csv', '--array-sep', '', '--json'], {
      env,
    });
    assert.equal(r.code, 2);
    assert.deepEqual(JSON.parse(r.stderr).error, {
      status: null,
      code: 'usage',
      message: '--array-sep cannot be empty.',
      request_id: null,
      errors: [],
      hint: null,
    });
  });
});
