// --sort, --select, --filter-json and how they combine with --where and --or.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildFilter, parseFilterJson } from '../../src/query/filter.ts';
import { parseSelect } from '../../src/query/select.ts';
import { formatSort, parseSort } from '../../src/query/sort.ts';
import { closest, didYouMean, editDistance } from '../../src/util/suggest.ts';
import { DEFS, usage } from './where-fixtures.ts';

const withDefs = { definitions: DEFS, objectType: 'deal' };

describe('parseSort', () => {
  it('-amount,name → desc then asc, in priority order', () => {
    assert.deepEqual(parseSort('-amount,name'), [{ amount: 'desc' }, { name: 'asc' }]);
    assert.deepEqual(parseSort(' +name , - amount '), [{ name: 'asc' }, { amount: 'desc' }]);
    assert.deepEqual(parseSort('organization.name'), [{ 'organization.name': 'asc' }]);
  });

  it('formatSort writes it back', () => {
    assert.equal(formatSort([{ amount: 'desc' }, { name: 'asc' }]), '-amount,name');
    assert.equal(formatSort([]), '');
    assert.equal(formatSort(null), '');
    assert.deepEqual(parseSort(formatSort(parseSort('-a,b,-c.d'))), parseSort('-a,b,-c.d'));
  });

  it('errors: empty, an empty item, a bad slug, a slug twice', () => {
    assert.match(usage(() => parseSort('')).message, /--sort needs at least one property slug/);
    const empty = usage(() => parseSort('-amount,,name'));
    assert.equal(empty.message, '--sort "-amount,,name" has an empty item (number 2).');
    assert.match(empty.hint ?? '', /-amount,name/);
    assert.match(usage(() => parseSort('amount,')).message, /empty item \(number 2\)/);
    assert.match(usage(() => parseSort('-')).message, /"" in --sort "-" is not a property slug/);
    assert.match(
      usage(() => parseSort('a b')).message,
      /"a b" in --sort "a b" is not a property slug/,
    );
    const twice = usage(() => parseSort('amount,-amount'));
    assert.equal(twice.message, '--sort "amount,-amount" names "amount" twice.');
  });

  it('with definitions: unknown slugs get "did you mean"', () => {
    assert.deepEqual(parseSort('-amount,id', withDefs), [{ amount: 'desc' }, { id: 'asc' }]);
    const e = usage(() => parseSort('-amuont', withDefs));
    assert.equal(
      e.message,
      'Unknown property "amuont" in --sort "-amuont": deal has no property with that slug.',
    );
    assert.equal(e.hint, 'Did you mean "amount"?');
  });
});

describe('parseSelect', () => {
  it('name,organization.name → the slugs, trimmed, each once', () => {
    assert.deepEqual(parseSelect('name, organization.name ,name'), ['name', 'organization.name']);
  });

  it('errors: empty, an empty item, a bad slug', () => {
    assert.match(
      usage(() => parseSelect(' ')).message,
      /--select needs at least one property slug/,
    );
    assert.match(usage(() => parseSelect('a,,b')).message, /has an empty item \(number 2\)/);
    assert.match(
      usage(() => parseSelect('a,b!')).message,
      /"b!" in --select "a,b!" is not a property slug/,
    );
    assert.match(usage(() => parseSelect('a..b')).hint ?? '', /follow a reference with a dot/);
  });

  it('with definitions: first segments checked, dot-paths only through references', () => {
    assert.deepEqual(parseSelect('name,organization.domain,id', withDefs), [
      'name',
      'organization.domain',
      'id',
    ]);
    const e = usage(() => parseSelect('name,stge', withDefs));
    assert.match(e.message, /Unknown property "stge" in --select "name,stge"/);
    assert.equal(e.hint, 'Did you mean "stage"?');
    assert.match(
      usage(() => parseSelect('name.first', withDefs)).message,
      /name", which is a str property/,
    );
  });
});

describe('parseFilterJson', () => {
  it('takes the API array as it is', () => {
    const text = '[{"amount":{">=":5}},{"stage":{"in":["won"]},"name":{"contains":"a"}}]';
    assert.deepEqual(parseFilterJson(text, withDefs), JSON.parse(text));
    assert.deepEqual(parseFilterJson('[]'), []);
  });

  it('errors: not JSON, not an array, a bad entry, a bad comparison, an unknown operator', () => {
    assert.match(usage(() => parseFilterJson('[{')).message, /^--filter-json is not valid JSON: /);
    const notArray = usage(() => parseFilterJson('{"amount":{">=":"5"}}'));
    assert.match(notArray.message, /must be a JSON array/);
    assert.match(notArray.hint ?? '', /--filter-json '\[\{"amount"/);
    assert.match(
      usage(() => parseFilterJson('[1]')).message,
      /\(item 1\) must be an object .* not 1\./,
    );
    assert.match(usage(() => parseFilterJson('[{}]')).message, /\(item 1\) must be an object/);
    assert.match(
      usage(() => parseFilterJson('[{"a":{"=":"1"}},{"b":"x"}]')).message,
      /\(item 2\): the value of "b" must be an object \{"operator": value\}, not "x"/,
    );
    const op = usage(() => parseFilterJson('[{"a":{"gte":"1"}}]'));
    assert.equal(op.message, '--filter-json (item 1): "gte" is not an operator.');
    assert.match(op.hint ?? '', /^Did you mean ">="\? Operators: = != < > <= >= contains/);
    assert.match(
      usage(() => parseFilterJson('[{"a":{"contain":"1"}}]')).hint ?? '',
      /^Did you mean "contains"/,
    );
  });

  it('checks slugs against the definitions', () => {
    const e = usage(() => parseFilterJson('[{"amout":{">=":"1"}}]', withDefs));
    assert.equal(
      e.message,
      'Unknown property "amout" in --filter-json (item 1): deal has no property with that slug.',
    );
    assert.equal(e.hint, 'Did you mean "amount"?');
  });
});

describe('buildFilter', () => {
  it('nothing given: no filter and no combinator', () => {
    assert.deepEqual(buildFilter({}), {});
    assert.deepEqual(buildFilter({ where: [] }), {});
  });

  it('--where alone combines with AND; --or makes it OR', () => {
    assert.deepEqual(buildFilter({ where: ['a=1', 'b=2'] }), {
      filter: [{ a: { '=': '1' } }, { b: { '=': '2' } }],
      combinator: 'AND',
    });
    assert.deepEqual(buildFilter({ where: ['a=1'], or: true }).combinator, 'OR');
  });

  it('--or alone only sets the combinator', () => {
    assert.deepEqual(buildFilter({ or: true }), { combinator: 'OR' });
  });

  it('--filter-json entries come first, then --where entries', () => {
    assert.deepEqual(buildFilter({ filterJson: '[{"x":{"exists":true}}]', where: ['a=1'] }), {
      filter: [{ x: { exists: true } }, { a: { '=': '1' } }],
      combinator: 'AND',
    });
    assert.deepEqual(buildFilter({ filterJson: '[]' }), { filter: [], combinator: 'AND' });
  });
});

describe('suggestions', () => {
  it('edit distance counts a swap of neighbours as one', () => {
    assert.equal(editDistance('amount', 'amount'), 0);
    assert.equal(editDistance('amuont', 'amount'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('kitten', 'sitting'), 3);
  });

  it('closest: near names first, prefixes too, case-insensitive, at most three', () => {
    assert.deepEqual(closest('amout', ['name', 'amount', 'mount', 'stage']), ['amount', 'mount']);
    assert.deepEqual(closest('org', ['organization', 'name']), ['organization']);
    assert.deepEqual(closest('WON', ['won', 'Won', 'lost']), ['won']);
    assert.equal(closest('a', ['b', 'c', 'd', 'e']).length, 3);
    assert.deepEqual(closest('zzzzzz', ['name', 'amount']), []);
  });

  it('didYouMean phrases one, two or three names', () => {
    assert.equal(didYouMean('amout', ['amount']), 'Did you mean "amount"?');
    assert.equal(didYouMean('gt', ['gte', 'lt']), 'Did you mean "gte" or "lt"?');
    assert.equal(didYouMean('b', ['a', 'c', 'd']), 'Did you mean "a", "c" or "d"?');
    assert.equal(didYouMean('zzzzzz', ['name']), undefined);
  });
});
