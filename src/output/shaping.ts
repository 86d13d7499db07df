// Shaping under way (--jq, --template): the engine loaded, its shaper given the output
// layer's JSON, and what commands write to stdout themselves read back as JSON for it.
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { UsageError } from '../errors.ts';
import type { IOStreams } from '../io/streams.ts';
import type { Format } from './format.ts';
import type { ShapeRequest, Shaper } from './shape.ts';

export interface ShapeContext {
  io: IOStreams;
  format: Format;
  cwd: string;
  now: () => Date;
}

/**
 * Load the engine the request names, check the expression or template (a usage error
 * quoting the engine's message, before any request is sent), and route the command's JSON
 * through it. Returns what ends the output once the command is done.
 */
export async function startShaping(
  request: ShapeRequest,
  ctx: ShapeContext,
): Promise<{ end(): Promise<void> }> {
  const { io } = ctx;
  const stdout = io.stdout;
  const put = async (text: string) => {
    if (text !== '' && !stdout.write(text)) await once(stdout, 'drain');
  };
  const shaper = await (request.kind === 'jq'
    ? (await import('./jq.ts')).jqShaper(request.expression, { io, format: ctx.format, put })
    : (await import('./template.ts')).templateShaper(request.spec, { ...ctx, put }));
  const diverted = new DivertedStdout(shaper, ctx.format);
  io.divertOutput(diverted, shaper);
  return {
    async end() {
      await diverted.finish();
      await shaper.end();
    },
  };
}

/** Output a command wrote as text that is not JSON: --jq and --template cannot read it. */
function notJson(text: string): UsageError {
  const shown = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return new UsageError(
    `This command's output is not JSON (${JSON.stringify(shown)}), so --jq and --template cannot read it.`,
    'Use them with commands that print JSON with --json.',
  );
}

/** JSON texts: one document, or one per line (NDJSON). */
function parseJsonTexts(text: string): unknown[] {
  if (text.trim() === '') return [];
  try {
    return [JSON.parse(text)];
  } catch {
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((line) => {
        try {
          return JSON.parse(line) as unknown;
        } catch {
          throw notJson(line);
        }
      });
  }
}

/**
 * stdout as a command sees it while its output is shaped: what it writes there itself
 * (a `{"deleted": …}` document, NDJSON lines as they happen) is read back as JSON for the
 * shaper: NDJSON line by line as it comes, a JSON document once the command is done.
 */
class DivertedStdout extends Writable {
  private text = '';
  private failure: unknown;

  constructor(
    private readonly shaper: Shaper,
    private readonly format: Format,
  ) {
    super({ decodeStrings: false });
  }

  override _write(chunk: string | Buffer, _enc: BufferEncoding, done: (e?: Error) => void): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (this.format !== 'ndjson' || this.failure !== undefined) {
      done();
      return;
    }
    const end = this.text.lastIndexOf('\n');
    if (end < 0) {
      done();
      return;
    }
    const lines = this.text.slice(0, end);
    this.text = this.text.slice(end + 1);
    // An error (an expression that fails on this line) is kept for finish(): a stream's
    // error event would have no listener in the command that wrote.
    Promise.resolve()
      .then(() => this.shaper.values(parseJsonTexts(lines)))
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => done());
  }

  override _final(done: (e?: Error) => void): void {
    if (this.failure !== undefined) {
      done(this.failure as Error);
      return;
    }
    const text = this.text;
    this.text = '';
    Promise.resolve()
      .then(() => this.shaper.values(parseJsonTexts(text)))
      .then(() => done(), done);
  }

  /** Shape what is left once the command is done, and fail as the shaping failed. */
  finish(): Promise<void> {
    return new Promise((resolve, reject) => {
      // The error is also emitted: listened to here, it is not an uncaught one.
      this.once('error', reject);
      this.end((err?: Error | null) => (err ? reject(err) : resolve()));
    });
  }
}
