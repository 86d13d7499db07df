// IOStreams: stderr opened only when used, and colour decided by ws (not by chalk).
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { type Env, IOStreams } from '../../src/io/streams.ts';

function streams(env: Env, stderrTTY: boolean, columns?: number) {
  const opened: string[] = [];
  const stderr = Object.assign(new PassThrough(), columns === undefined ? {} : { columns });
  let text = '';
  stderr.on('data', (c: Buffer) => {
    text += c.toString('utf8');
  });
  const io = new IOStreams({
    stdout: new PassThrough(),
    stderr: () => {
      opened.push('stderr');
      return stderr;
    },
    stdin: () => Readable.from([]),
    isStdoutTTY: false,
    isStderrTTY: () => {
      opened.push('isStderrTTY');
      return stderrTTY;
    },
    isStdinTTY: false,
    env,
  });
  return { io, opened, stderr: () => text };
}

describe('IOStreams', () => {
  it('opens stderr only when a command writes to it or asks what it is', () => {
    const s = streams({}, false);
    s.io.configure({ quiet: false });
    s.io.println('data');
    assert.deepEqual(s.opened, []);
    s.io.info('hello');
    assert.deepEqual(s.opened, ['stderr']);
    assert.equal(s.io.err.level, 0);
    assert.deepEqual(s.opened, ['stderr', 'isStderrTTY']);
    assert.equal(s.stderr(), 'hello\n');
  });

  it('colours stderr from the terminal and NO_COLOR, FORCE_COLOR and --no-color', () => {
    assert.equal(streams({}, true).io.err.level, 1);
    assert.equal(streams({ TERM: 'xterm-256color' }, true).io.err.level, 2);
    assert.equal(streams({ NO_COLOR: '1' }, true).io.err.level, 0);
    assert.equal(streams({ FORCE_COLOR: '3' }, false).io.err.level, 3);
    const off = streams({}, true);
    assert.equal(off.io.err.level, 1);
    off.io.configure({ color: false });
    assert.equal(off.io.err.level, 0);
  });

  it("colours the spinner's frames on a terminal by ws's decision", async () => {
    const coloured = streams({}, true);
    const p = await coloured.io.progress('Working');
    p.stop();
    assert.match(coloured.stderr(), /\x1b\[36m⠋\x1b\[39m Working/);
    const plain = streams({ NO_COLOR: '1' }, true);
    const q = await plain.io.progress('Working');
    q.stop();
    assert.match(plain.stderr(), /⠋ Working/);
    assert.doesNotMatch(plain.stderr(), /\x1b\[3\dm/);
  });

  it('prints plain progress lines on a terminal that reports no width', async () => {
    const s = streams({ NO_COLOR: '1' }, true, 0);
    const p = await s.io.progress('Working', { intervalMs: 0 });
    p.update('Still working');
    p.succeed('Done');
    assert.equal(s.stderr(), 'Working\nStill working\nDone\n');
  });
});
