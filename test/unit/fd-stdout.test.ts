// FdStdout: stdout written on its file descriptor, handed to a stream when the descriptor
// would block, quiet on a closed reader or descriptor, and a clear error on anything else.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { WsError } from '../../src/errors.ts';
import { FdStdout, type WriteFd } from '../../src/io/fd-stdout.ts';

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}, write`), { code });
}

/** A descriptor that takes at most `room` bytes per call, then fails with `then`. */
function descriptor(script: (number | string | undefined)[]) {
  const got: Buffer[] = [];
  const write: WriteFd = (fd, data) => {
    assert.equal(fd, 1);
    const step = script.shift();
    if (typeof step === 'string') throw errno(step, 'refused');
    const bytes = Buffer.from(data);
    const n = step === undefined ? bytes.length : Math.min(step, bytes.length);
    got.push(bytes.subarray(0, n));
    return n;
  };
  return { write, text: () => Buffer.concat(got).toString('utf8') };
}

/** A stream that holds what it is given until released, as a full pipe does. */
function slowStream() {
  const chunks: string[] = [];
  let release: () => void = () => {};
  const stream = new Writable({
    highWaterMark: 4,
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      release = () => cb();
    },
  });
  return { stream, text: () => chunks.join(''), release: () => release() };
}

/** A writer on `fd` that must never need its stream, nor see EPIPE unless `onBrokenPipe` says. */
function writerOn(
  fd: { write: WriteFd },
  onBrokenPipe: () => void = () => assert.fail('no EPIPE'),
) {
  return new FdStdout({ write: fd.write, stream: () => assert.fail('no stream'), onBrokenPipe });
}

describe('FdStdout', () => {
  it('writes whole, and again after a partial write, in order (multi-byte text too)', () => {
    const fd = descriptor([3, 1, 100, undefined]);
    const out = writerOn(fd);
    assert.equal(out.write('héllo wörld\n'), true);
    assert.equal(out.write(Buffer.from('bytes\n')), true);
    assert.equal(fd.text(), 'héllo wörld\nbytes\n');
  });

  it('hands the rest to the stream when the descriptor would block, and its drain is the writer’s', async () => {
    const fd = descriptor([4, 'EAGAIN']);
    const slow = slowStream();
    let made = 0;
    const out = new FdStdout({
      write: fd.write,
      stream: () => {
        made++;
        return slow.stream;
      },
      onBrokenPipe: () => assert.fail('no EPIPE'),
    });
    const first = out.write('line one\n');
    // The stream holds its first chunk: it asks the writer to wait.
    assert.equal(first, false);
    assert.equal(out.write('line two\n'), false);
    const drained = once(out, 'drain');
    slow.release();
    slow.release();
    await drained;
    assert.equal(made, 1);
    assert.equal(fd.text() + slow.text(), 'line one\nline two\n');
  });

  it('stops writing, once, when the reader goes away (EPIPE)', () => {
    const fd = descriptor(['EPIPE']);
    let broken = 0;
    const out = writerOn(fd, () => broken++);
    assert.equal(out.write('a\n'), true);
    assert.equal(out.write('b\n'), true);
    assert.equal(broken, 1);
    assert.equal(fd.text(), '');
  });

  it('drops output to a closed descriptor, as Node’s stdout does', () => {
    const fd = descriptor(['EBADF']);
    const out = writerOn(fd);
    let called = false;
    assert.equal(
      out.write('a\n', () => {
        called = true;
      }),
      true,
    );
    assert.equal(out.write('b\n'), true);
    assert.equal(called, true);
  });

  it('fails with what went wrong and what to do on any other error (a full disk)', () => {
    const fd = descriptor(['ENOSPC']);
    const out = writerOn(fd);
    assert.throws(
      () => out.write('a\n'),
      (err: unknown) =>
        err instanceof WsError &&
        err.code === 'output_failed' &&
        err.message === 'Could not write the output: refused (ENOSPC).' &&
        /send it elsewhere/.test(err.hint ?? ''),
    );
  });
});
