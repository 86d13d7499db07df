import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CoerceResult,
  coerceValue,
  normaliseValue,
  type ValueDefinition,
} from '../../src/values/coerce.ts';
import {
  sameValue,
  toWriteForm,
  unneutralise,
  valueText,
  writeFormOf,
} from '../../src/values/write-form.ts';

const def = (type: string, extra: Partial<ValueDefinition> = {}): ValueDefinition => ({
  slug: extra.slug ?? 'x',
  type,
  ...extra,
});
const status = def('select_str', {
  slug: 'status',
  options: [
    { id: '11111111-1111-4111-8111-111111111111', slug: 'lead', value: 'Lead' },
    { id: '22222222-2222-4222-8222-222222222222', slug: 'customer', value: 'Customer' },
    { id: '33333333-3333-4333-8333-333333333333', slug: 'in_progress', value: 'In progress' },
  ],
});
const tags = def('multiselect_str', { slug: 'tags', options: status.options });
const ID = '7d0f3c2a-5b1e-4c8d-9a6f-2e4b8c1d0f3a';

const value = (r: CoerceResult) => {
  assert.equal(r.ok, true, r.ok ? '' : r.error);
  return r.ok ? r.value : undefined;
};
const error = (r: CoerceResult) => {
  assert.equal(r.ok, false, 'expected a problem');
  return r.ok ? '' : r.error;
};

describe('coerceValue', () => {
  it('types numbers, and refuses what is not one', () => {
    assert.equal(value(coerceValue(def('num'), '1000')), 1000);
    assert.equal(value(coerceValue(def('num'), '-12.5')), -12.5);
    assert.equal(value(coerceValue(def('num'), '1e3')), 1000);
    assert.equal(value(coerceValue(def('num'), ' 1_000 ')), 1000);
    assert.equal(
      error(coerceValue(def('num', { slug: 'amount' }), '12k')),
      'amount takes a number, not "12k".',
    );
    assert.match(error(coerceValue(def('num'), '0x10')), /takes a number/);
    assert.match(error(coerceValue(def('num'), 'Infinity')), /takes a number/);
    assert.match(error(coerceValue(def('num'), '')), /the value is empty/);
  });

  it('types booleans from true/false, yes/no, 1/0, on/off in any case', () => {
    for (const t of ['true', 'TRUE', 'yes', 'Y', '1', 'on'])
      assert.equal(value(coerceValue(def('bool'), t)), true);
    for (const t of ['false', 'No', 'n', '0', 'off'])
      assert.equal(value(coerceValue(def('bool'), t)), false);
    assert.equal(
      error(coerceValue(def('bool', { slug: 'subscribed' }), 'maybe')),
      'subscribed takes true or false, not "maybe".',
    );
  });

  it('keeps calendar dates, normalises date-times with a zone to UTC, refuses the rest', () => {
    assert.equal(value(coerceValue(def('date'), '2026-02-28')), '2026-02-28');
    assert.equal(
      value(coerceValue(def('date'), '2026-03-31T09:30:00+02:00')),
      '2026-03-31T07:30:00.000Z',
    );
    assert.equal(value(coerceValue(def('date'), '2026-03-31T09:30Z')), '2026-03-31T09:30:00.000Z');
    assert.match(
      error(coerceValue(def('date', { slug: 'birthday' }), '2026-02-30')),
      /"2026-02-30" is not a date of the calendar \(birthday\)/,
    );
    assert.match(error(coerceValue(def('date'), '31/03/2026')), /takes a date/);
    assert.match(error(coerceValue(def('date'), '2026-03-31T09:30:00')), /takes a date/);
  });

  it('takes a select option by slug, id or display value (any case), answering the slug', () => {
    assert.equal(value(coerceValue(status, 'customer')), 'customer');
    assert.equal(value(coerceValue(status, 'Customer')), 'customer');
    assert.equal(value(coerceValue(status, 'in progress')), 'in_progress');
    assert.equal(value(coerceValue(status, '22222222-2222-4222-8222-222222222222')), 'customer');
    const r = coerceValue(status, 'custmer');
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(
        r.error,
        '"custmer" is not an option of status; it takes one of lead ("Lead"), customer ("Customer"), in_progress ("In progress").',
      );
      assert.equal(r.hint, 'Did you mean "customer"?');
    }
  });

  it('splits multiselect values on the separator, types each, drops repeats', () => {
    assert.deepEqual(value(coerceValue(tags, 'lead, Customer,lead')), ['lead', 'customer']);
    assert.deepEqual(value(coerceValue(tags, 'lead;customer', { separator: ';' })), [
      'lead',
      'customer',
    ]);
    assert.deepEqual(value(coerceValue(tags, '')), []);
    assert.match(error(coerceValue(tags, 'lead,nope')), /"nope" is not an option of tags/);
  });

  it('clears with null, unless the property is required', () => {
    assert.equal(value(coerceValue(def('num'), 'null')), null);
    assert.equal(value(coerceValue(status, 'null')), null);
    assert.equal(
      error(coerceValue(def('str', { slug: 'name', required: true }), 'null')),
      'name is required: it cannot be cleared.',
    );
    assert.equal(value(coerceValue(def('num'), '', { emptyIsNull: true })), null);
  });

  it('keeps text as written, references as ids, lists and JSON', () => {
    assert.equal(value(coerceValue(def('str'), '  Ada  ')), '  Ada  ');
    assert.equal(value(coerceValue(def('text'), '')), '');
    assert.equal(value(coerceValue(def('ref_organization'), ID.toUpperCase())), ID);
    assert.match(
      error(coerceValue(def('ref_organization', { slug: 'organization' }), 'Acme')),
      /organization takes a record id \(a UUID\), not "Acme"/,
    );
    assert.deepEqual(value(coerceValue(def('multiref_contact'), `${ID}, ${ID}`)), [ID, ID]);
    assert.deepEqual(value(coerceValue(def('multi_str'), 'a, b,,c')), ['a', 'b', 'c']);
    assert.deepEqual(value(coerceValue(def('jsonb'), '{"a":[1]}')), { a: [1] });
    assert.match(error(coerceValue(def('jsonb'), '{a}')), /is not valid JSON/);
  });
});

describe('normaliseValue', () => {
  it('checks typed values and brings them to the write form', () => {
    assert.equal(value(normaliseValue(def('num'), 5)), 5);
    assert.equal(value(normaliseValue(def('num'), '5')), 5);
    assert.match(
      error(normaliseValue(def('num', { slug: 'score' }), true)),
      /score takes a number, not the boolean true/,
    );
    assert.equal(value(normaliseValue(def('str'), 5551234)), '5551234');
    assert.equal(value(normaliseValue(def('str'), 'null')), 'null');
    assert.equal(value(normaliseValue(def('str'), null)), null);
    assert.deepEqual(value(normaliseValue(tags, ['Lead', 'customer'])), ['lead', 'customer']);
    assert.match(error(normaliseValue(tags, 'lead,x')), /"x" is not an option/);
    assert.equal(value(normaliseValue(def('ref_contact'), { id: ID, properties: {} })), ID);
    assert.deepEqual(value(normaliseValue(def('multiref_contact'), [{ id: ID }, ID])), [ID]);
    assert.match(error(normaliseValue(def('bool'), [true])), /takes true or false, not a list/);
    assert.deepEqual(value(normaliseValue(def('jsonb'), { a: 1 })), { a: 1 });
  });
});

describe('write form', () => {
  it('turns read references into ids and compares values deeply', () => {
    assert.equal(toWriteForm({ id: ID, properties: { name: 'Acme' } }), ID);
    assert.deepEqual(toWriteForm([{ id: ID, properties: {} }]), [ID]);
    assert.deepEqual(toWriteForm({ id: 'x', other: 1 }), { id: 'x', other: 1 });
    assert.deepEqual(writeFormOf({ org: { id: ID, properties: {} }, n: 1 }), { org: ID, n: 1 });
    assert.equal(sameValue({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), true);
    assert.equal(sameValue(['a', 'b'], ['b', 'a']), false);
    assert.equal(sameValue(undefined, null), true);
    assert.equal(valueText(null), '(empty)');
    assert.equal(valueText(['a', 'b']), 'a, b');
    assert.equal(unneutralise("'=SUM(A1)"), '=SUM(A1)');
    assert.equal(unneutralise("'+1 415"), '+1 415');
    assert.equal(unneutralise("'quoted'"), "'quoted'");
    assert.equal(unneutralise('=x'), '=x');
  });
});
