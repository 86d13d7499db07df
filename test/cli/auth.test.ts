import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runWs, tempConfigDir } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox, writeProfiles } from '../helpers/sandbox.ts';
import { startStub } from '../helpers/stub-server.ts';

let t: TestSandbox;
let env: Record<string, string>;
const OTHER_TEAM = '00000000-0000-4000-8000-000000000001';
const WRONG_KEY = 'wsk_wrong_key_ffffffffffffffff9999';

before(async () => {
  t = await startTestSandbox();
  const s = t.sandbox;
  writeProfiles(
    t.configDir,
    {
      main: { base_url: s.url, team_id: s.teamId, api_key: s.apiKey, rate_limit: 0 },
      second: { base_url: s.url, team_id: s.teamId, api_key: s.apiKey, rate_limit: 0 },
      wrongkey: { base_url: s.url, team_id: s.teamId, api_key: WRONG_KEY, rate_limit: 0 },
      otherteam: { base_url: s.url, team_id: OTHER_TEAM, api_key: s.apiKey, rate_limit: 0 },
    },
    'main',
  );
  env = { WS_CONFIG_DIR: t.configDir };
});
after(() => t.stop());

const status = async (argv: string[], extraEnv: Record<string, string> = {}) => {
  const r = await runWs(['auth', 'status', '--json', ...argv], { env: { ...env, ...extraEnv } });
  return { ...r, json: r.code === 0 ? JSON.parse(r.stdout) : undefined };
};

describe('ws auth status', () => {
  it('checks the key with one request and prints profile, base URL, team id and the redacted key', async () => {
    const r = await status([]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.json.request_id, /^req_[0-9a-f]{24}$/);
    assert.deepEqual(r.json, {
      profile: 'main',
      base_url: t.sandbox.url,
      team_id: t.sandbox.teamId,
      api_key: `…${t.sandbox.apiKey.slice(-4)}`,
      api_key_source: 'profile main',
      status: 'ok',
      request_id: r.json.request_id,
    });
    assert.ok(!r.stdout.includes(t.sandbox.apiKey) && !r.stderr.includes(t.sandbox.apiKey));
  });

  it('is also `ws whoami`, and prints a key/value listing on a terminal', async () => {
    const r = await runWs(['whoami'], { env: { ...env, NO_COLOR: '1' }, tty: true });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^profile +main\nbase_url +http:\/\/127\.0\.0\.1:\d+\nteam_id +[0-9a-f-]{36}\napi_key +…\w{4}\nstatus +ok\n$/,
    );
    assert.match(r.stderr, /The API key works for this team/);
  });

  it('piped, prints key<TAB>value lines; one field alone is its value', async () => {
    const r = await runWs(['auth', 'status'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      `profile\tmain\nbase_url\t${t.sandbox.url}\nteam_id\t${t.sandbox.teamId}\n` +
        `api_key\t…${t.sandbox.apiKey.slice(-4)}\nstatus\tok\n`,
    );
    const one = await runWs(['auth', 'status', '--fields', 'team_id'], { env });
    assert.equal(one.stdout, `${t.sandbox.teamId}\n`);
  });

  it('tells an invalid key from no access to the team, both exit 3, never printing the key', async () => {
    const wrong = await runWs(['auth', 'status', '--profile', 'wrongkey'], { env });
    assert.equal(wrong.code, 3);
    assert.match(wrong.stderr, /The API key was refused/);
    assert.match(wrong.stderr, /key is invalid/i);
    assert.ok(!wrong.stderr.includes(WRONG_KEY));
    assert.match(wrong.stderr, /…9999/);

    const team = await runWs(['auth', 'status', '--profile', 'otherteam'], { env });
    assert.equal(team.code, 3);
    assert.match(team.stderr, new RegExp(`no access to team ${OTHER_TEAM}`));
  });

  it('explains a 401 (no key reached the service) apart from a 403', async () => {
    const stub = await startStub(() => ({
      status: 401,
      body: {
        error: { code: 'unauthorized', message: 'No API key provided.', request_id: 'req_x' },
      },
    }));
    try {
      const r = await runWs(['auth', 'status', '--json'], {
        env: { WS_CONFIG_DIR: t.configDir, WS_PROFILE: 'main', WS_BASE_URL: stub.url },
      });
      assert.equal(r.code, 3);
      const err = JSON.parse(r.stderr).error;
      assert.equal(err.status, 401);
      assert.equal(err.code, 'unauthorized');
      assert.match(err.message, /No API key was sent/);
      assert.equal(err.request_id, 'req_stub_1');
      assert.equal(stub.requests[0]?.headers['x-api-key'], t.sandbox.apiKey);
    } finally {
      await stub.close();
    }
  });
});

describe('which credentials are used', () => {
  it('--profile beats WS_PROFILE, which beats the default profile', async () => {
    assert.equal((await status([])).json.profile, 'main');
    assert.equal((await status([], { WS_PROFILE: 'second' })).json.profile, 'second');
    assert.equal(
      (await status(['--profile', 'main'], { WS_PROFILE: 'second' })).json.profile,
      'main',
    );
    // The flag works before the subcommand too.
    const before = await runWs(['--profile', 'second', '--json', 'auth', 'status'], { env });
    assert.equal(JSON.parse(before.stdout).profile, 'second');
  });

  it('WS_API_KEY, WS_TEAM_ID and WS_BASE_URL override single values of the chosen profile', async () => {
    const fixed = await status(['--profile', 'wrongkey'], { WS_API_KEY: t.sandbox.apiKey });
    assert.equal(fixed.code, 0);
    assert.equal(fixed.json.profile, 'wrongkey');
    const team = await status(['--profile', 'otherteam'], { WS_TEAM_ID: t.sandbox.teamId });
    assert.equal(team.code, 0);
    assert.equal(team.json.team_id, t.sandbox.teamId);
    const broken = await status([], { WS_BASE_URL: 'http://127.0.0.1:1' });
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /Could not reach http:\/\/127\.0\.0\.1:1 \(connection refused\)/);
  });

  it('a WS_TEAM_ID that is not a UUID is a usage error before sending; a refused key from WS_API_KEY says it came from there', async () => {
    const garbage = await runWs(['records', 'list', 'contacts', '--limit', '1'], {
      env: { ...env, WS_TEAM_ID: 'garbage' },
    });
    assert.equal(garbage.code, 2, garbage.stderr);
    assert.match(
      garbage.stderr,
      /^error: The team id "garbage" \(from WS_TEAM_ID\) is not a team id: it is a UUID/,
    );
    assert.match(garbage.stderr, /Fix or unset WS_TEAM_ID\./);
    const refused = await runWs(['records', 'list', 'contacts', '--limit', '1'], {
      env: { ...env, WS_API_KEY: WRONG_KEY },
    });
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(
      refused.stderr,
      /The key in WS_API_KEY was used, overriding profile main's: check it, or unset WS_API_KEY to use the profile's\./,
    );
    assert.ok(!refused.stderr.includes(WRONG_KEY), 'the key is never printed');
    const json = await runWs(['records', 'list', 'contacts', '--json'], {
      env: { ...env, WS_API_KEY: WRONG_KEY },
    });
    assert.equal(json.code, 3);
    assert.equal(JSON.parse(json.stderr).error.status, 403);
    const profileKey = await runWs(['records', 'list', 'contacts', '--profile', 'wrongkey'], {
      env,
    });
    assert.equal(profileKey.code, 3);
    assert.doesNotMatch(profileKey.stderr, /WS_API_KEY was used/);
  });

  it('needs no profile when the environment has all three values', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const r = await runWs(['auth', 'status', '--json', '--fields', 'profile,status'], {
        env: {
          WS_CONFIG_DIR: dir,
          WS_BASE_URL: t.sandbox.url,
          WS_TEAM_ID: t.sandbox.teamId,
          WS_API_KEY: t.sandbox.apiKey,
        },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), { profile: null, status: 'ok' });
    } finally {
      cleanup();
    }
  });

  it('with no profile and no environment, exits 3 and says how to add one or start a sandbox', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const r = await runWs(['auth', 'status'], { env: { WS_CONFIG_DIR: dir } });
      assert.equal(r.code, 3);
      assert.match(r.stderr, /No profile is set up/);
      assert.match(r.stderr, /ws profile add/);
      assert.match(r.stderr, /ws sandbox start/);
      const api = await runWs(['api', 'GET', '/v2/prism/{teamId}/contact/count', '--json'], {
        env: { WS_CONFIG_DIR: dir },
      });
      assert.equal(api.code, 3);
      assert.equal(JSON.parse(api.stderr).error.code, 'auth');
    } finally {
      cleanup();
    }
  });

  it('an unknown --profile or WS_PROFILE is not found (exit 4), listing the profiles', async () => {
    const r = await runWs(['auth', 'status', '--profile', 'nope'], { env });
    assert.equal(r.code, 4);
    assert.match(r.stderr, /No profile named "nope" \(from --profile\)/);
    assert.match(r.stderr, /Profiles: main, otherteam, second, wrongkey/);
    const e = await runWs(['auth', 'status'], { env: { ...env, WS_PROFILE: 'gone' } });
    assert.equal(e.code, 4);
    assert.match(e.stderr, /\(from WS_PROFILE\)/);
  });

  it('a profile without a key fails with exit 3 naming how to add one', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      writeProfiles(
        dir,
        { nokey: { base_url: t.sandbox.url, team_id: t.sandbox.teamId } },
        'nokey',
      );
      const r = await runWs(['auth', 'status'], { env: { WS_CONFIG_DIR: dir } });
      assert.equal(r.code, 3);
      assert.match(r.stderr, /No API key in profile nokey/);
    } finally {
      cleanup();
    }
  });
});
