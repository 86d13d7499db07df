// ws auth status and ws whoami: argv in, the options object a verb gets out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUsageErrors, options } from '../helpers/parse.ts';

describe('ws auth: parsing', () => {
  it('auth status and whoami take no flags of their own', async () => {
    assert.deepEqual(await options(['auth', 'status']), {});
    assert.deepEqual(await options(['whoami', '--profile', 'prod']), {});
    await assertUsageErrors([[['auth', 'status', '--verbose'], /[Uu]nknown option '--verbose'/]]);
  });
});
