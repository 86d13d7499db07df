// The command's abort, told to ws's own waits without EventTarget (src/util/abort.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandAbortController, onAbort } from '../../src/util/abort.ts';

describe('onAbort', () => {
  for (const [kind, make] of [
    ['the command signal', commandAbortController],
    ['any other signal', () => new AbortController()],
  ] as const) {
    it(`calls a listener of ${kind} once, after the signal is aborted with its reason`, () => {
      const controller = make();
      const seen: unknown[] = [];
      onAbort(controller.signal, () => seen.push(controller.signal.reason));
      const removed = onAbort(controller.signal, () => seen.push('removed'));
      removed();
      const reason = new Error('Interrupted.');
      controller.abort(reason);
      controller.abort(new Error('again'));
      assert.deepEqual([...seen], [reason]);
      assert.equal(controller.signal.aborted, true);
      // Added once the signal has aborted: never called (check `aborted` first).
      onAbort(controller.signal, () => seen.push('late'));
      controller.abort(new Error('again'));
      assert.deepEqual([...seen], [reason]);
    });
  }

  it("the command signal's own 'abort' event still fires, before its listeners", () => {
    const controller = commandAbortController();
    const order: string[] = [];
    onAbort(controller.signal, () => order.push('onAbort'));
    controller.signal.addEventListener('abort', () => order.push('event'));
    controller.abort();
    assert.deepEqual(order, ['event', 'onAbort']);
    assert.equal((controller.signal.reason as Error).name, 'AbortError');
  });
});
