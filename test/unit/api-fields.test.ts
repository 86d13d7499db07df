import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildBody,
  keyPath,
  parseHeader,
  toQuery,
  typedValue,
} from '../../src/commands/api/fields.ts';
import { UsageError } from '../../src/errors.ts';

describe('ws api -f fields', () => {
  it('types numbers, booleans and null, and keeps other text as strings', () => {
    assert.equal(typedValue('42'), 42);
    assert.equal(typedValue('-1.5'), -1.5);
    assert.equal(typedValue('true'), true);
    assert.equal(typedValue('false'), false);
    assert.equal(typedValue('null'), null);
    assert.equal(typedValue('007'), '007');
    assert.equal(typedValue('12345678901234567890'), '12345678901234567890');
    assert.equal(typedValue('Ada'), 'Ada');
  });

  it('nests keys and appends to arrays', () => {
    assert.deepEqual(keyPath('query[select][]'), ['query', 'select', '']);
    assert.deepEqual(
      buildBody([
        'query[select][]=name',
        'query[select][]=email',
        'query[limit]=50',
        'default[name]=Ada',
        'deleted=false',
      ]),
      { query: { select: ['name', 'email'], limit: 50 }, default: { name: 'Ada' }, deleted: false },
    );
  });

  it('takes raw JSON after :=', () => {
    assert.deepEqual(buildBody(['ids:=["a","b"]', 'n:="5"']), { ids: ['a', 'b'], n: '5' });
    assert.throws(() => buildBody(['x:={bad']), UsageError);
  });

  it('rejects malformed fields with a usage error', () => {
    assert.throws(() => buildBody(['novalue']), UsageError);
    assert.throws(() => buildBody(['=v']), UsageError);
    assert.throws(() => buildBody(['a=1', 'a[b]=2']), UsageError);
  });

  it('flattens fields into query parameters for GET', () => {
    assert.deepEqual(toQuery({ limit: 5, tag: ['a', 'b'], q: 'x' }), {
      limit: '5',
      tag: ['a', 'b'],
      q: 'x',
    });
  });

  it('parses headers and refuses an API key given as a flag', () => {
    assert.deepEqual(parseHeader('If-Match: "abc"'), ['If-Match', '"abc"']);
    assert.throws(() => parseHeader('nocolon'), UsageError);
    assert.throws(() => parseHeader('x-api-key: secret'), /never from a flag/);
  });
});
