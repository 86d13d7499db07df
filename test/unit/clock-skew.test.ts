// How `ws webhooks listen` and `ws webhooks verify` word a timestamp refused for the clocks'
// difference: the skew in seconds, and the same as people read it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withClockSkew } from '../../src/webhooks/explain.ts';

function inFuture(seconds: number): string | undefined {
  return withClockSkew({
    valid: false,
    reason: 'timestamp_in_future',
    detail: `signed ${seconds} s in the future`,
    ageSeconds: -seconds,
  });
}

describe('clock skew', () => {
  it('names the skew in seconds and in the unit its rounded size reads in', () => {
    const cases: [number, string][] = [
      [301, '5 min'],
      [119, '119 s'],
      [120, '2 min'],
      [3569, '59 min'],
      [3570, '1 h'],
      [3599, '1 h'],
      [3600, '1 h'],
      [5399, '1 h'],
      [5400, '2 h'],
    ];
    for (const [seconds, span] of cases) {
      assert.equal(
        inFuture(seconds),
        `signed ${seconds} s in the future: a clock skew of ${seconds} s, this machine's clock ${span} behind the sender's; set it right (compare \`date -u\` with a time server)`,
      );
    }
  });

  it('says the other way round for a timestamp too old', () => {
    const said = withClockSkew({
      valid: false,
      reason: 'timestamp_too_old',
      detail: 'signed 3599 s ago',
      ageSeconds: 3599,
    });
    assert.match(said ?? '', /this machine's clock 1 h ahead of the sender's/);
  });

  it('says nothing of a valid signature or another failure', () => {
    assert.equal(withClockSkew({ valid: true, timestamp: 0, ageSeconds: 3599 }), undefined);
    assert.equal(
      withClockSkew({ valid: false, reason: 'no_match', detail: 'no match', ageSeconds: 1 }),
      undefined,
    );
  });
});
