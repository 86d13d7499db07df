// ws profile: argv in, the options object a verb gets out (the verb itself does not run).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUsageErrors, options } from '../helpers/parse.ts';

describe('ws profile: parsing', () => {
  it('add: every flag, and none', async () => {
    assert.deepEqual(
      await options([
        'profile',
        'add',
        'prod',
        '--base-url',
        'https://api.example.com',
        '--team-id',
        '8f1c0000-0000-4000-8000-000000000000',
        '--with-key',
        '--rate-limit',
        '0',
        '--default',
        '--no-verify',
      ]),
      {
        name: 'prod',
        baseUrl: 'https://api.example.com',
        teamId: '8f1c0000-0000-4000-8000-000000000000',
        withKey: true,
        rateLimit: 0,
        makeDefault: true,
        verify: false,
      },
    );
    assert.deepEqual(await options(['profile', 'add', 'dev']), {
      name: 'dev',
      baseUrl: undefined,
      teamId: undefined,
      withKey: false,
      rateLimit: undefined,
      makeDefault: false,
      verify: true,
    });
  });

  it('list, use, show and remove', async () => {
    assert.deepEqual(await options(['profile', 'ls']), {});
    assert.deepEqual(await options(['profile', 'use', 'prod']), { name: 'prod' });
    assert.deepEqual(await options(['profile', 'show']), { name: undefined });
    assert.deepEqual(await options(['profile', 'rm', 'prod']), { name: 'prod' });
  });

  it('usage errors: exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['profile', 'add', 'p', '--rate-limit', '-1'],
        /--rate-limit takes a whole number from 0 to 10000, not "-1"/,
      ],
      [['profile', 'use'], /Missing NAME: `ws profile use` needs a profile name/],
    ];
    await assertUsageErrors(cases);
  });
});
