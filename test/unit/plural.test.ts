// Counts in messages: thousands separators as toLocaleString('en-US') writes them (without
// ICU), and words that agree with their number.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { noun, plural, thousands } from '../../src/output/plural.ts';

describe('thousands', () => {
  it("writes every integer as toLocaleString('en-US') does", () => {
    const samples = [0, 1, 12, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789];
    for (let digits = 1; digits <= 16; digits++) samples.push(10 ** (digits - 1) + digits * 7);
    samples.push(Number.MAX_SAFE_INTEGER);
    for (const n of [...samples, ...samples.filter((x) => x !== 0).map((x) => -x)]) {
      assert.equal(thousands(n), n.toLocaleString('en-US'), String(n));
    }
  });

  it('leaves fractions and numbers past the safe integers to toLocaleString', () => {
    for (const n of [1234.5, 2 ** 60, Number.POSITIVE_INFINITY]) {
      assert.equal(thousands(n), n.toLocaleString('en-US'));
    }
  });
});

describe('plural', () => {
  it('agrees with its number', () => {
    assert.equal(plural(1, 'contact'), '1 contact');
    assert.equal(plural(1200, 'identity'), '1,200 identities');
    assert.equal(noun(2, 'day'), 'days');
  });
});
