import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { runWs, scriptedPrompter, tempConfigDir } from '../helpers/run.ts';
import { startTestSandbox } from '../helpers/sandbox.ts';
import { startStub } from '../helpers/stub-server.ts';

const KEY = 'wsk_live_9b1e6f0c2d7a4e5f8a3b1c0d2e4f6a8b';
const TEAM = '3f1c2a9e-1111-4222-8333-944455556666';

let dir: string;
let cleanup: () => void;
let env: Record<string, string>;

beforeEach(() => {
  ({ dir, cleanup } = tempConfigDir());
  env = { WS_CONFIG_DIR: dir };
});
afterEach(() => cleanup());

const add = (name: string, extra: string[] = [], key = KEY) =>
  runWs(
    [
      'profile',
      'add',
      name,
      '--base-url',
      'https://api.example.com',
      '--team-id',
      TEAM,
      '--with-key',
      '--no-verify',
      ...extra,
    ],
    {
      env,
      stdin: `${key}\n`,
    },
  );

describe('ws profile', () => {
  it('adds a profile from flags and a key on stdin, in a 0600 file, the first one the default', async () => {
    const r = await add('prod');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Saved profile "prod" \(key …6a8b\) as the default profile/);
    const file = join(dir, 'config.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(saved, {
      profiles: { prod: { base_url: 'https://api.example.com', team_id: TEAM, api_key: KEY } },
      default_profile: 'prod',
    });
  });

  it('keeps the file at 0600 after every change', async () => {
    await add('prod');
    await add('staging');
    await runWs(['profile', 'use', 'staging'], { env });
    assert.equal(statSync(join(dir, 'config.json')).mode & 0o777, 0o600);
  });

  it('lists profiles with keys cut to their last four characters, in every format', async () => {
    await add('prod');
    await add('staging', ['--rate-limit', '5'], 'wsk_live_other_key_7777');
    const tsv = await runWs(['profile', 'list'], { env });
    assert.equal(tsv.code, 0);
    assert.equal(
      tsv.stdout,
      `prod\ttrue\thttps://api.example.com\t${TEAM}\t…6a8b\t10\nstaging\tfalse\thttps://api.example.com\t${TEAM}\t…7777\t5\n`,
    );
    const json = await runWs(['profile', 'list', '--json'], { env });
    assert.deepEqual(JSON.parse(json.stdout), [
      {
        name: 'prod',
        default: true,
        base_url: 'https://api.example.com',
        team_id: TEAM,
        api_key: '…6a8b',
        rate_limit: 10,
      },
      {
        name: 'staging',
        default: false,
        base_url: 'https://api.example.com',
        team_id: TEAM,
        api_key: '…7777',
        rate_limit: 5,
      },
    ]);
    const table = await runWs(['profile', 'list'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    assert.match(table.stdout, /^NAME +DEFAULT +BASE URL +TEAM ID +API KEY +RATE LIMIT\n/);
    for (const r of [tsv, json, table]) {
      assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY));
      assert.ok(!r.stdout.includes('other_key'));
    }
  });

  it('shows the profile in use, or a named one, without the key', async () => {
    await add('prod');
    await add('staging');
    const r = await runWs(['profile', 'show', '--json'], { env });
    assert.equal(r.code, 0);
    assert.equal(JSON.parse(r.stdout).name, 'prod');
    assert.equal(JSON.parse(r.stdout).api_key, '…6a8b');
    const piped = await runWs(['profile', 'show'], { env });
    assert.equal(
      piped.stdout,
      `name\tprod\ndefault\ttrue\nbase_url\thttps://api.example.com\nteam_id\t${TEAM}\n` +
        'api_key\t…6a8b\nrate_limit\t10\n',
    );
    const named = await runWs(['profile', 'show', 'staging', '--fields', 'name,default'], { env });
    assert.equal(named.stdout, 'name\tstaging\ndefault\tfalse\n');
    const viaEnv = await runWs(['profile', 'show', '--fields', 'name'], {
      env: { ...env, WS_PROFILE: 'staging' },
    });
    assert.equal(viaEnv.stdout, 'staging\n');
    const missing = await runWs(['profile', 'show', 'nope'], { env });
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /No profile named "nope"/);
    assert.match(missing.stderr, /Profiles: prod, staging/);
  });

  it('a named profile that does not exist is exit 4 (not_found) wherever it is named', async () => {
    await add('prod');
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--profile', 'nope', 'auth', 'status'], {}, /No profile named "nope" \(from --profile\)/],
      [['records', 'list', 'contacts', '--profile', 'nope'], {}, /\(from --profile\)/],
      [['auth', 'status'], { WS_PROFILE: 'nope' }, /No profile named "nope" \(from WS_PROFILE\)/],
      [['profile', 'use', 'nope'], {}, /No profile named "nope"\./],
      [['profile', 'show', 'nope'], {}, /No profile named "nope"\./],
      [['profile', 'show', '--profile', 'nope'], {}, /\(from --profile\)/],
      [['profile', 'remove', 'nope', '--yes'], {}, /No profile named "nope"\./],
    ];
    for (const [argv, extra, message] of cases) {
      const r = await runWs(argv, { env: { ...env, ...extra } });
      assert.equal(r.code, 4, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /Profiles: prod\./);
      const json = await runWs([...argv, '--json'], { env: { ...env, ...extra } });
      assert.equal(JSON.parse(json.stderr).error.code, 'not_found', argv.join(' '));
    }
  });

  it('switches the default with use', async () => {
    await add('prod');
    await add('staging');
    const r = await runWs(['profile', 'use', 'staging'], { env });
    assert.equal(r.code, 0);
    assert.equal(
      JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).default_profile,
      'staging',
    );
    assert.equal((await runWs(['profile', 'use', 'nope'], { env })).code, 4);
  });

  it('removes only after confirmation: refused without --yes off a terminal, asked on one', async () => {
    await add('prod');
    const refused = await runWs(['profile', 'remove', 'prod'], { env });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Not removing profile "prod" without confirmation/);
    assert.match(refused.stderr, /--yes/);
    assert.ok(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.prod);

    const no = scriptedPrompter({ 'Remove profile': false });
    const declined = await runWs(['profile', 'rm', 'prod'], { env, tty: true, prompter: no });
    assert.equal(declined.code, 1);
    assert.deepEqual(no.asked, ['Remove profile "prod" and its API key?']);
    assert.ok(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.prod);

    const yes = scriptedPrompter({ 'Remove profile': true });
    const removed = await runWs(['profile', 'rm', 'prod'], { env, tty: true, prompter: yes });
    assert.equal(removed.code, 0);
    const after = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    assert.deepEqual(after.profiles, {});
    assert.equal(after.default_profile, undefined);

    await add('prod');
    assert.equal((await runWs(['profile', 'remove', 'prod', '--yes'], { env })).code, 0);
  });

  it('prompts on a terminal for what is missing, the key masked', async () => {
    const p = scriptedPrompter({
      'Base URL': 'https://api.example.com/',
      'Team id': TEAM,
      'API key': KEY,
    });
    const r = await runWs(['profile', 'add', 'prod', '--no-verify'], {
      env,
      tty: true,
      prompter: p,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(p.asked, [
      'Base URL of the API',
      'Team id',
      'API key (from the workspace settings, API section)',
    ]);
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.prod;
    assert.deepEqual(saved, { base_url: 'https://api.example.com', team_id: TEAM, api_key: KEY });
  });

  it('never prompts off a terminal, or with --no-input: a missing value names its flag', async () => {
    const p = scriptedPrompter({});
    const piped = await runWs(['profile', 'add', 'prod', '--team-id', TEAM], {
      env,
      prompter: p,
      stdin: KEY,
    });
    assert.equal(piped.code, 2);
    assert.match(piped.stderr, /--base-url is required/);
    const noInput = await runWs(
      ['profile', 'add', 'prod', '--no-input', '--base-url', 'https://a.example'],
      {
        env,
        tty: true,
        prompter: p,
      },
    );
    assert.equal(noInput.code, 2);
    assert.match(noInput.stderr, /--team-id is required/);
    const noKey = await runWs(
      ['profile', 'add', 'prod', '--base-url', 'https://a.example', '--team-id', TEAM],
      { env, prompter: p },
    );
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /No API key given/);
    assert.match(noKey.stderr, /--with-key/);
    assert.deepEqual(p.asked, []);
  });

  it('rejects a bad name, URL, team id or an empty key, and writes nothing', async () => {
    const bad = [
      [
        'profile',
        'add',
        'bad name',
        '--base-url',
        'https://a.example',
        '--team-id',
        TEAM,
        '--with-key',
      ],
      ['profile', 'add', 'p', '--base-url', 'ftp://a.example', '--team-id', TEAM, '--with-key'],
      [
        'profile',
        'add',
        'p',
        '--base-url',
        'https://a.example',
        '--team-id',
        'team-1',
        '--with-key',
      ],
      [
        'profile',
        'add',
        'p',
        '--base-url',
        'https://a.example',
        '--team-id',
        TEAM,
        '--with-key',
        '--rate-limit',
        'fast',
      ],
    ];
    for (const argv of bad) {
      const r = await runWs(argv, { env, stdin: KEY });
      assert.equal(r.code, 2, argv.join(' '));
    }
    const empty = await runWs(
      ['profile', 'add', 'p', '--base-url', 'https://a.example', '--team-id', TEAM, '--with-key'],
      { env, stdin: '\n' },
    );
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /empty API key/);
    const list = await runWs(['profile', 'list', '--json'], { env });
    assert.deepEqual(JSON.parse(list.stdout), []);
  });

  it('asks before replacing a profile, and refuses off a terminal without --yes', async () => {
    await add('prod');
    const r = await add('prod', [], 'wsk_live_replacement_0000');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /already exists; nothing was changed/);
    assert.equal(
      JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.prod.api_key,
      KEY,
    );
    const forced = await add('prod', ['--yes'], 'wsk_live_replacement_0000');
    assert.equal(forced.code, 0);
    assert.equal(
      JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.prod.api_key,
      'wsk_live_replacement_0000',
    );
  });
});

describe('ws profile add checks the key with one request', () => {
  const addTo = (url: string, team: string, key: string, extra: string[] = []) =>
    runWs(['profile', 'add', 'p', '--base-url', url, '--team-id', team, '--with-key', ...extra], {
      env,
      stdin: `${key}\n`,
    });
  const saved = () =>
    runWs(['profile', 'list', '--json'], { env }).then((r) => JSON.parse(r.stdout));

  it('saves a key that works, after one request, and says so', async () => {
    const s = await startTestSandbox();
    try {
      const r = await addTo(s.sandbox.url, s.sandbox.teamId, s.sandbox.apiKey);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`The key works for team ${s.sandbox.teamId}\\.`));
      assert.doesNotMatch(r.stderr, /Check it with/);
      assert.equal((await saved()).length, 1);
      assert.ok(!r.stderr.includes(s.sandbox.apiKey));
    } finally {
      await s.stop();
    }
  });

  it('says which of the key and the team is wrong, exit 3, and saves nothing', async () => {
    const s = await startTestSandbox();
    try {
      const wrongKey = await addTo(s.sandbox.url, s.sandbox.teamId, 'wsk_wrong_key_0000');
      assert.equal(wrongKey.code, 3, wrongKey.stderr);
      assert.match(
        wrongKey.stderr,
        /The API key …0000 is not valid for http:\/\/127\.0\.0\.1:\d+: the key is wrong/,
      );
      assert.match(
        wrongKey.stderr,
        /Nothing was saved; `ws profile add p … --no-verify` saves it without checking\./,
      );
      const wrongTeam = await addTo(s.sandbox.url, TEAM, s.sandbox.apiKey);
      assert.equal(wrongTeam.code, 3, wrongTeam.stderr);
      assert.match(
        wrongTeam.stderr,
        new RegExp(`works, but it has no access to team ${TEAM}: the team id is wrong`),
      );
      assert.match(wrongTeam.stderr, /Check --team-id/);
      const json = await addTo(s.sandbox.url, TEAM, s.sandbox.apiKey, ['--json']);
      assert.equal(JSON.parse(json.stderr).error.code, 'auth');
      assert.deepEqual(await saved(), []);
    } finally {
      await s.stop();
    }
  });

  it('a refusal that does not say which names both; --no-verify saves without a request', async () => {
    const stub = await startStub(() => ({ status: 403, body: { message: 'Forbidden' } }));
    try {
      const r = await addTo(stub.url, TEAM, KEY);
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, /without saying whether the key or the team id is wrong/);
      assert.equal(stub.requests.length, 1);
      assert.match(stub.requests[0]!.url, new RegExp(`^/v2/prism/${TEAM}/contact/count`));
      assert.deepEqual(await saved(), []);
      const skipped = await addTo(stub.url, TEAM, KEY, ['--no-verify']);
      assert.equal(skipped.code, 0, skipped.stderr);
      assert.equal(stub.requests.length, 1);
      assert.match(skipped.stderr, /Check it with: ws auth status/);
      assert.equal((await saved()).length, 1);
    } finally {
      await stub.close();
    }
  });

  it('an address where nothing answers, or that is not the API: nothing saved', async () => {
    const dead = await addTo('http://127.0.0.1:9', TEAM, KEY, ['--retries', '0']);
    assert.equal(dead.code, 1, dead.stderr);
    assert.match(dead.stderr, /Could not reach http:\/\/127\.0\.0\.1:9/);
    assert.match(dead.stderr, /--no-verify/);
    const page = await startStub(() => ({ status: 404, body: '<html>Not here</html>' }));
    try {
      const r = await addTo(page.url, TEAM, KEY);
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, /does not answer as the API does \(HTTP 404/);
      assert.match(r.stderr, /Check --base-url/);
    } finally {
      await page.close();
    }
    assert.deepEqual(await saved(), []);
  });
});
