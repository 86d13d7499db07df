// ws auth status and ws whoami: argv in, the options object a verb gets out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { options, parse } from '../helpers/parse.ts';

describe('ws auth: parsing', () => {
  it('auth status and whoami take no flags of their own', async () => {
    assert.deepEqual(await options(['auth', 'status']), {});
    assert.deepEqual(await options(['whoami', '--profile', 'prod']), {});
    const r = await parse(['auth', 'status', '--verbose']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /[Uu]nknown option '--verbose'/);
  });
});
