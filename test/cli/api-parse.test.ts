// ws api: argv in, the options object of the request out (nothing is sent).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertUsageErrors, options } from '../helpers/parse.ts';

describe('ws api: parsing', () => {
  it('every flag, -f and -H repeated in order', async () => {
    assert.deepEqual(
      await options([
        'api',
        'POST',
        '/v2/prism/{teamId}/contact/query',
        '-f',
        'query[select][]=name',
        '--field',
        'query[limit]=50',
        '-H',
        'x-a: 1',
        '--header',
        'x-b: 2',
        '-i',
        '--idempotency-key',
        'k1',
      ]),
      {
        method: 'POST',
        path: '/v2/prism/{teamId}/contact/query',
        fields: ['query[select][]=name', 'query[limit]=50'],
        input: undefined,
        headers: ['x-a: 1', 'x-b: 2'],
        include: true,
        paginate: false,
        idempotencyKey: 'k1',
      },
    );
  });

  it('--input and --paginate', async () => {
    assert.deepEqual(await options(['api', 'GET', '/x', '--input', '-', '--paginate']), {
      method: 'GET',
      path: '/x',
      fields: [],
      input: '-',
      headers: [],
      include: false,
      paginate: true,
      idempotencyKey: undefined,
    });
  });

  it('a missing path: exit 2', async () => {
    await assertUsageErrors([[['api', 'GET'], /Missing required argument 'path'/]]);
  });
});
