// ws api: argv in, the options object of the request out (nothing is sent).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OLD_FIELD_FLAG } from '../../src/commands/api/index.ts';
import { assertUsageErrors, options } from '../helpers/parse.ts';

describe('ws api: parsing', () => {
  it('every flag, -F and -H repeated in order', async () => {
    assert.deepEqual(
      await options([
        'api',
        'POST',
        '/v2/prism/{teamId}/contact/query',
        '-F',
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
        warnings: [],
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
      warnings: [],
    });
  });

  it('-f, the old short flag of --field, still works, in order with -F, and warns', async () => {
    const o = (await options([
      'api',
      'POST',
      '/x',
      '-F',
      'a=1',
      '-f',
      'b=2',
      '--field',
      'c=3',
    ])) as {
      fields: string[];
      warnings: string[];
    };
    assert.deepEqual(o.fields, ['a=1', 'b=2', 'c=3']);
    assert.deepEqual(o.warnings, [OLD_FIELD_FLAG]);
  });

  it('a missing path: exit 2', async () => {
    await assertUsageErrors([
      [['api', 'GET'], /^error: Missing PATH: `ws api` needs a path below the base URL/],
    ]);
  });
});
