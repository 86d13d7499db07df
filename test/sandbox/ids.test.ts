import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomId } from '../../src/sandbox/ids.ts';

test('randomId: lower-case UUIDs of version 4 and variant 10xx, all different', () => {
  const seen = new Set<string>();
  // More than one pool of random bytes (256 ids), so a refill is crossed.
  for (let i = 0; i < 1000; i++) {
    const id = randomId();
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    seen.add(id);
  }
  assert.equal(seen.size, 1000);
});

test('randomId: every hex digit position varies (no byte left out of the text)', () => {
  const ids = Array.from({ length: 200 }, randomId);
  for (let at = 0; at < 36; at++) {
    if ([8, 13, 14, 18, 23].includes(at)) continue; // dashes and the version digit
    assert.ok(new Set(ids.map((id) => id[at])).size > 1, `position ${at} never changes`);
  }
});
