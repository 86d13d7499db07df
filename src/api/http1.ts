// HTTP/1.1 as the one-shot transport (transport-http.ts) speaks it (RFC 9112): the head of a
// request, and an answer read whole from the bytes a connection delivers. A client that
// sends one request at a time per connection and never asks for an upgrade needs: a status
// line and header fields, informational (1xx) answers skipped, and a body framed by
// Content-Length, chunked transfer coding or the connection's end, or no body at all (HEAD,
// 204, 304). Whatever does not parse is refused with code BAD_ANSWER; a body over the cap,
// with ANSWER_TOO_LARGE, before it is read.
import { type Answer, answerTooLarge, transportError } from './transport.ts';

/** The most bytes of status line and header fields read before giving up on an answer. */
export const MAX_HEAD_BYTES = 64 * 1024;

// The checks below are loops over character codes, not regular expressions (see
// util/text.ts): every request's head and answer goes through them.

/** A token (RFC 9110 §5.6.2): a method or a field name. */
function isToken(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const alnum = (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
    // !#$%&'*+-.^_`|~
    if (!alnum && "!#$%&'*+-.^_`|~".indexOf(s[i]!) === -1) return false;
  }
  return true;
}

/** A field value's characters: visible ones, spaces and tabs (RFC 9110 §5.5), as Node checks them. */
function badValue(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x09 && (c < 0x20 || c === 0x7f || c > 0xff)) return true;
  }
  return false;
}

/** A request target's characters: no spaces or control characters (Node's check). */
function badTarget(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x21 || c > 0xff) return true;
  }
  return false;
}

function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** The items of a comma-separated field value, trimmed and in lower case. */
function listItems(value: string): string[] {
  return value.split(',').map((item) => item.trim().toLowerCase());
}

// Bytes as text through Buffer's own slice methods where it has them: toString(), indexOf()
// and concat() cost a command ~0.6 ms the first time they run (Node compiles them then).
type Slicing = Buffer & {
  latin1Slice?: (start: number, end: number) => string;
  utf8Slice?: (start: number, end: number) => string;
};

/** Bytes start to end as latin1: one character per byte. */
function latin1(buf: Buffer, start: number, end: number): string {
  const b = buf as Slicing;
  return b.latin1Slice ? b.latin1Slice(start, end) : buf.toString('latin1', start, end);
}

/**
 * The bytes from `at` as latin1 text, and where `sep` first is in them (-1: not within
 * MAX_HEAD_BYTES of `at`, or not yet arrived). The first KiB is looked at first: heads and
 * chunk lines are short, and a chunked answer has a line before each chunk.
 */
function upTo(buf: Buffer, at: number, sep: string): { text: string; index: number } {
  let end = Math.min(buf.length, at + 1024);
  for (;;) {
    const text = latin1(buf, at, end);
    const index = text.indexOf(sep);
    const whole = Math.min(buf.length, at + MAX_HEAD_BYTES + sep.length);
    if (index !== -1 || end === whole) return { text, index };
    end = whole;
  }
}

function utf8(buf: Buffer, start: number, end: number): string {
  const b = buf as Slicing;
  return b.utf8Slice ? b.utf8Slice(start, end) : buf.toString('utf8', start, end);
}

/** Fields the transport writes itself, from the request it sends. */
const OWN_FIELDS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
/** Methods whose request carries a body, so an empty one is declared (as Node does). */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** Fields of which a repeat is dropped (Node keeps the first); others are joined with ", ". */
const SINGLE = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/**
 * The request line and header fields, checked: a name that is not a token, or a value with a
 * line break or a control character, is refused (code BAD_HEADER) naming the field, never
 * showing its value (it may be a key). Text of one byte per character, written as latin1.
 */
export function requestHead(
  method: string,
  target: string,
  host: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
): string {
  if (!isToken(method)) throw transportError('BAD_HEADER', `"${method}" is not an HTTP method.`);
  if (badTarget(target))
    throw transportError('BAD_HEADER', 'The request path has a space or a control character.');
  let head = `${method} ${target} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (!isToken(name)) throw transportError('BAD_HEADER', `"${name}" is not a valid header name.`);
    if (badValue(value))
      throw Object.assign(
        transportError(
          'BAD_HEADER',
          `The ${name} header has a line break or a control character, which a request cannot carry.`,
        ),
        { header: name },
      );
    if (OWN_FIELDS.has(name.toLowerCase())) continue;
    head += `${name}: ${value}\r\n`;
  }
  if (body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
  else if (WITH_BODY.has(method)) head += 'content-length: 0\r\n';
  return `${head}\r\n`;
}

/** Where the reader is in an answer. */
const Stage = {
  Head: 0,
  /** A body of known length: `left` bytes to come. */
  Sized: 1,
  /** Chunked: a chunk's size line. */
  ChunkSize: 2,
  /** Chunked: `left` bytes of a chunk's data. */
  ChunkData: 3,
  /** Chunked: the line break after a chunk's data. */
  ChunkEnd: 4,
  /** Chunked: trailer fields, up to an empty line. */
  Trailers: 5,
  /** To the connection's end. */
  ToEnd: 6,
  Done: 7,
} as const;
type Stage = (typeof Stage)[keyof typeof Stage];

/**
 * Reads one answer from a connection's bytes: push() each chunk as it arrives (it returns
 * the answer once whole), end() when the connection ends (an answer framed by the end is
 * whole then; any other is cut short, code ECONNRESET). Throws on what does not parse.
 */
export class AnswerReader {
  /** Whether the connection may carry another request once the answer is whole. */
  reusable = false;
  /** True until a byte of an answer arrives. */
  nothingYet = true;
  private readonly noBody: boolean;
  private readonly max: number;
  private stage: Stage = Stage.Head;
  /** Bytes of a line or head not whole yet. */
  private pending: Buffer | undefined;
  private left = 0;
  private size = 0;
  /** The body's parts: each a buffer and the range of it that is body. */
  private readonly body: [Buffer, number, number][] = [];
  private status = 0;
  private headers: Record<string, string> = {};

  constructor(method: string, max: number) {
    this.noBody = method === 'HEAD';
    this.max = max;
  }

  push(chunk: Buffer): Answer | undefined {
    if (chunk.length === 0) return undefined;
    this.nothingYet = false;
    const buf = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    let at = 0;
    while (at < buf.length || this.stage === Stage.Done) {
      switch (this.stage) {
        case Stage.Head: {
          // The head ends at the first empty line, within MAX_HEAD_BYTES.
          const { text, index: end } = upTo(buf, at, '\r\n\r\n');
          if (end === -1) {
            if (buf.length - at > MAX_HEAD_BYTES) throw badAnswer('Its headers are too large.');
            this.pending = buf.subarray(at);
            return undefined;
          }
          if (end > MAX_HEAD_BYTES) throw badAnswer('Its headers are too large.');
          const interim = this.readHead(text.slice(0, end));
          at += end + 4;
          if (interim) continue;
          break;
        }
        case Stage.Sized:
        case Stage.ChunkData: {
          const n = Math.min(this.left, buf.length - at);
          this.take(buf, at, at + n);
          at += n;
          this.left -= n;
          if (this.left === 0)
            this.stage = this.stage === Stage.Sized ? Stage.Done : Stage.ChunkEnd;
          break;
        }
        case Stage.ChunkSize:
        case Stage.ChunkEnd:
        case Stage.Trailers: {
          const { text, index: eol } = upTo(buf, at, '\r\n');
          if (eol === -1) {
            if (buf.length - at > MAX_HEAD_BYTES) throw badAnswer('A chunk line is too long.');
            this.pending = buf.subarray(at);
            return undefined;
          }
          const line = text.slice(0, eol);
          at += eol + 2;
          this.readLine(line);
          break;
        }
        case Stage.ToEnd:
          this.take(buf, at, buf.length);
          at = buf.length;
          break;
        case Stage.Done:
          // Bytes past the answer: not an answer to anything this client sent.
          if (at < buf.length) this.reusable = false;
          return this.answer();
      }
    }
    return undefined;
  }

  /** The connection ended: the answer, if the end was its frame. */
  end(): Answer {
    if (this.stage === Stage.ToEnd || this.stage === Stage.Done) {
      this.reusable = false;
      return this.answer();
    }
    throw transportError(
      'ECONNRESET',
      this.nothingYet
        ? 'The connection was closed before an answer came.'
        : 'The connection was closed mid-answer.',
    );
  }

  /** Reads a status line and header fields; true for an informational answer (skipped). */
  private readHead(text: string): boolean {
    const lines = text.split('\r\n');
    // HTTP/1.x NNN, then a space and a reason (on one line), or nothing.
    const first = lines[0]!;
    const minor = first[7];
    const code = first.slice(9, 12);
    if (
      !first.startsWith('HTTP/1.') ||
      (minor !== '0' && minor !== '1') ||
      first[8] !== ' ' ||
      !isDigits(code) ||
      (first.length > 12 && first[12] !== ' ') ||
      first.includes('\n') ||
      first.includes('\r')
    )
      throw badAnswer('It does not begin with an HTTP/1.1 status line.');
    const status = Number(code);
    const headers: Record<string, string> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon).toLowerCase() : '';
      if (!isToken(name)) throw badAnswer('A header line does not parse.');
      const value = line.slice(colon + 1).trim();
      const had = headers[name];
      if (had === undefined) headers[name] = value;
      else if (!SINGLE.has(name)) headers[name] = `${had}, ${value}`;
      else if (name === 'content-length' && had !== value)
        throw badAnswer('It declares two lengths.');
    }
    if (status < 200) {
      if (status === 101) throw badAnswer('It switches protocols, which was not asked for.');
      return true;
    }
    this.status = status;
    this.headers = headers;
    const closes =
      headers.connection !== undefined && listItems(headers.connection).includes('close');
    this.reusable = minor === '1' && !closes;
    const te = headers['transfer-encoding'];
    const length = headers['content-length'];
    if (this.noBody || status === 204 || status === 304) {
      this.stage = Stage.Done;
    } else if (te !== undefined) {
      if (listItems(te).at(-1) !== 'chunked') {
        this.stage = Stage.ToEnd;
        this.reusable = false;
      } else this.stage = Stage.ChunkSize;
      // Both framings declared: the chunks frame this answer, and the connection is not
      // trusted with another (RFC 9112 §6.3).
      if (length !== undefined) this.reusable = false;
    } else if (length !== undefined) {
      if (!isDigits(length)) throw badAnswer('Its Content-Length is not a number.');
      this.left = Number(length);
      if (this.left > this.max) throw answerTooLarge(this.max, headers);
      this.stage = this.left === 0 ? Stage.Done : Stage.Sized;
    } else {
      this.stage = Stage.ToEnd;
      this.reusable = false;
    }
    return false;
  }

  /** A line of the chunked coding: a chunk's size, the break after its data, or a trailer. */
  private readLine(line: string): void {
    if (this.stage === Stage.ChunkEnd) {
      if (line !== '') throw badAnswer('A chunk is longer than it declares.');
      this.stage = Stage.ChunkSize;
    } else if (this.stage === Stage.ChunkSize) {
      const m = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line);
      if (m === null) throw badAnswer('A chunk size does not parse.');
      this.left = Number.parseInt(m[1]!, 16);
      if (this.size + this.left > this.max) throw answerTooLarge(this.max, this.headers);
      this.stage = this.left === 0 ? Stage.Trailers : Stage.ChunkData;
    } else if (line === '') {
      // Trailer fields are not used: the empty line ends the answer.
      this.stage = Stage.Done;
    }
  }

  private take(buf: Buffer, start: number, end: number): void {
    if (end === start) return;
    this.size += end - start;
    if (this.size > this.max) throw answerTooLarge(this.max, this.headers);
    this.body.push([buf, start, end]);
  }

  private answer(): Answer {
    const parts = this.body;
    let text = '';
    if (parts.length === 1) text = utf8(parts[0]![0], parts[0]![1], parts[0]![2]);
    else if (parts.length > 1) {
      const whole = Buffer.concat(parts.map(([buf, start, end]) => buf.subarray(start, end)));
      text = utf8(whole, 0, whole.length);
    }
    return { status: this.status, headers: this.headers, text };
  }
}

function badAnswer(why: string): Error {
  return transportError('BAD_ANSWER', `The answer is not HTTP/1.1 the client can read: ${why}`);
}
