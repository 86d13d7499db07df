// ws sandbox: argv in, the options object a verb gets out (no sandbox starts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUsageErrors, options } from '../helpers/parse.ts';

const TEAM = '00000000-0000-4000-8000-00000000000a';

describe('ws sandbox: parsing', () => {
  it('start: the defaults', async () => {
    assert.deepEqual(await options(['sandbox', 'start']), {
      host: '127.0.0.1',
      port: 4800,
      apiKey: undefined,
      teamId: undefined,
      data: undefined,
      fsync: 'everysec',
      seed: undefined,
      teams: [],
      importFile: undefined,
      exportOnExit: undefined,
      from: undefined,
      sample: undefined,
      scrub: false,
      latency: 0,
      failRate: 0,
      failAfterCommit: 0,
      rateLimit: 0,
      maxBodyBytes: undefined,
      webhooks: {
        preview: false,
        strictAddresses: false,
        timeoutMs: 10_000,
        retryDelaysMs: undefined,
      },
      profile: true,
      console: true,
      detach: false,
      argv: [],
    });
  });

  it('start: every flag, and the argv a detached copy is started with', async () => {
    const given = [
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--api-key',
      'wsk_test',
      '--team-id',
      TEAM,
      '--data',
      'state.json',
      '--fsync',
      'always',
      '--seed',
      'demo',
      '--team',
      'acme',
      '--team',
      'globex',
      '--import',
      'fixture.json',
      '--export-on-exit',
      'out.json',
      '--latency',
      '20',
      '--fail-rate',
      '0.1',
      '--fail-after-commit',
      '0.05',
      '--rate-limit',
      '10',
      '--max-body-bytes',
      '65536',
      '--webhooks-preview',
      '--strict-webhook-urls',
      '--webhook-timeout',
      '2000',
      '--webhook-retry-delays',
      '100,200',
      '--no-console',
      '--no-profile',
      '--detach',
    ];
    assert.deepEqual(await options(['sandbox', 'start', ...given]), {
      host: '0.0.0.0',
      port: 0,
      apiKey: 'wsk_test',
      teamId: TEAM,
      data: 'state.json',
      fsync: 'always',
      seed: 'demo',
      teams: ['acme', 'globex'],
      importFile: 'fixture.json',
      exportOnExit: 'out.json',
      from: undefined,
      sample: undefined,
      scrub: false,
      latency: 20,
      failRate: 0.1,
      failAfterCommit: 0.05,
      rateLimit: 10,
      maxBodyBytes: 65536,
      webhooks: {
        preview: true,
        strictAddresses: true,
        timeoutMs: 2000,
        retryDelaysMs: [100, 200],
      },
      profile: false,
      console: false,
      detach: true,
      argv: given,
    });
    // Given in another order, a detached copy gets them in the order start defines them.
    const cloned = (await options([
      'sandbox',
      'start',
      '--from',
      'prod',
      '--sample',
      '20',
      '--scrub',
      '--detach',
    ])) as { from: string; sample: number; scrub: boolean; argv: string[] };
    assert.deepEqual([cloned.from, cloned.sample, cloned.scrub], ['prod', 20, true]);
    // The detached copy starts from the clone (--import FILE is added then), not again.
    assert.deepEqual(cloned.argv, ['--detach']);
    const { argv } = (await options(['sandbox', 'start', '--detach', '--port', '0'])) as {
      argv: string[];
    };
    assert.deepEqual(argv, ['--port', '0', '--detach']);
  });

  it('status, stop and open', async () => {
    assert.deepEqual(await options(['sandbox', 'status']), {});
    assert.deepEqual(await options(['sandbox', 'stop']), {});
    assert.deepEqual(await options(['sandbox', 'open']), { browser: true });
    assert.deepEqual(await options(['sandbox', 'open', '--no-browser']), { browser: false });
  });

  it('usage errors: exit 2 before anything starts', async () => {
    const cases: [string[], RegExp][] = [
      [['sandbox', 'start', '--seed', 'big'], /Unknown seed "big"/],
      [['sandbox', 'start', '--fsync', 'sometimes'], /Unknown --fsync policy "sometimes"/],
      [['sandbox', 'start', '--team-id', 'T'], /--team-id "T" is not a UUID/],
      [['sandbox', 'start', '--team', 'Acme Inc'], /--team "Acme Inc" is not a team name/],
      [['sandbox', 'start', '--team', 'a', '--team', 'a'], /--team names a team twice/],
      [['sandbox', 'start', '--scrub'], /--sample and --scrub go with --from PROFILE/],
      [['sandbox', 'start', '--port', '70000'], /--port takes a whole number from 0 to 65535/],
      [
        ['sandbox', 'start', '--fail-rate', '2'],
        /--fail-rate takes a probability from 0 to 1, not "2"/,
      ],
      [['sandbox', 'start', '--latency', '-5'], /--latency takes a whole number from 0 to 600000/],
    ];
    await assertUsageErrors(cases);
  });
});
