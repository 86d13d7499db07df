// The CSV tokenizer of `ws import`: decoded text in, records out, each with its fields and
// its raw text. It reads as csv-parse reads with the options the import used with it before
// (`bom`, `raw`, `relax_quotes`, `relax_column_count`, `skip_records_with_error`): the same
// fields and the same raw text for every input, however the text is cut into pieces
// (test/unit/csv.test.ts compares the two on generated inputs). It exists because csv-parse
// reads bytes one at a time through several method calls each, and wants bytes, so the
// text was encoded back to bytes for it and each field decoded again: on a plain file it
// cost as much as the rest of an import put together. Here fields are slices of the text,
// found with charCodeAt and indexOf.
//
// The rules (csv-parse's, under those options):
// - A UTF-8 byte-order mark at the start is dropped.
// - The record delimiter is the first line break met outside quotes: \r\n, \n or \r. Only
//   that one ends records from then on; the others are characters of a field.
// - A field is quoted when its first character is a quote. Inside, "" is a quote; a quote
//   followed by the delimiter, the record delimiter or the end of the input closes it. Any
//   other quote ends the quoting there and the field goes on unquoted, starting with the
//   quote it opened with: `"ab"c` is the field `"ab"c`. A quote inside an unquoted field is
//   a character like any other.
// - A record's raw text runs from its first character to the first character of the
//   record delimiter that ends it (with \r\n, the \n is not in it: csv-parse skipped it).
// - A quote still open at the end of the input makes the text from the start of its record
//   to the end one unclosed item (no fields).
// - A blank line is a record of one empty field. A last line without a line break is a
//   record; an empty one is not.

const QUOTE = 34;
const LF = 10;
const CR = 13;

export interface CsvItem {
  /** The fields; undefined for an unclosed quote. */
  fields: string[] | undefined;
  raw: string;
  /**
   * Line breaks in `raw`, when the tokenizer knows them without counting (no quoted field,
   * no line break inside a field); -1 otherwise.
   */
  lineEnds: number;
}

enum Mode {
  /** At the first character of a field. */
  FieldStart,
  /** In an unquoted field that began at `fieldStart`. */
  Unquoted,
  /** In a quoted field whose text since the last escaped quote began at `fieldStart`. */
  Quoted,
}

export class CsvTokenizer {
  private readonly delimiter: number;
  /** The record delimiter once met: "\r\n", "\n" or "\r". */
  private rd = '';
  private started = false;
  /** Text not read yet: a character whose meaning depends on the next one. */
  private carry = '';
  private mode = Mode.FieldStart;
  /** The current record's fields so far. */
  private fields: string[] = [];
  /** Text of the current field, and raw text of the current record, from earlier pieces. */
  private fieldParts: string[] = [];
  private rawParts: string[] = [];
  /** The current record has a quoted field or a line break inside a field. */
  private complex = false;

  constructor(delimiter: string) {
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** Read a piece of text; the records it completes are appended to `out`. */
  write(text: string, out: CsvItem[]): void {
    this.read(this.carry === '' ? text : this.carry + text, false, out);
  }

  /** The end of the input: the last record, or the unclosed quote. */
  end(out: CsvItem[]): void {
    this.read(this.carry, true, out);
  }

  private read(text: string, final: boolean, out: CsvItem[]): void {
    this.carry = '';
    let buf = text;
    if (!this.started) {
      if (buf === '' && !final) return;
      this.started = true;
      if (buf.charCodeAt(0) === 0xfeff) buf = buf.slice(1);
    }
    // `s` is the text the loops read (`buf`, which the helpers below hold, is the same).
    const s = buf;
    const len = s.length;
    const delim = this.delimiter;
    let recordStart = 0;
    let fieldStart = 0;
    let pos = 0;
    /** Stop at `at` and keep the text from there for the next piece. */
    const hold = (at: number): void => {
      if (this.mode !== Mode.FieldStart && at > fieldStart)
        this.fieldParts.push(buf.slice(fieldStart, at));
      if (at > recordStart) this.rawParts.push(buf.slice(recordStart, at));
      this.carry = buf.slice(at);
    };
    /** The current field's text up to `end`. */
    const fieldText = (end: number): string => {
      const tail = buf.slice(fieldStart, end);
      if (this.fieldParts.length === 0) return tail;
      this.fieldParts.push(tail);
      const value = this.fieldParts.join('');
      this.fieldParts = [];
      return value;
    };
    const record = (rawEnd: number): void => {
      let raw = buf.slice(recordStart, rawEnd);
      if (this.rawParts.length > 0) {
        this.rawParts.push(raw);
        raw = this.rawParts.join('');
        this.rawParts = [];
      }
      out.push({
        fields: this.fields,
        raw,
        lineEnds: this.complex ? -1 : rawEnd > recordStart && isBreak(buf, rawEnd - 1) ? 1 : 0,
      });
      this.fields = [];
      this.complex = false;
    };
    const endField = (end: number): void => {
      this.fields.push(fieldText(end));
      this.mode = Mode.FieldStart;
    };
    /** The field ends at `fieldEnd`, and its record's raw text at `rawEnd`. */
    const endRecord = (fieldEnd: number, rawEnd: number): void => {
      endField(fieldEnd);
      record(rawEnd);
    };

    for (;;) {
      if (this.mode === Mode.FieldStart) {
        if (pos >= len) {
          if (!final) {
            hold(pos);
            return;
          }
          // The end of the input after a delimiter makes a last empty field.
          if (this.fields.length > 0) {
            this.fields.push('');
            record(pos);
          }
          return;
        }
        if (s.charCodeAt(pos) === QUOTE) {
          this.mode = Mode.Quoted;
          this.complex = true;
          pos++;
        } else {
          this.mode = Mode.Unquoted;
        }
        fieldStart = pos;
      }

      if (this.mode === Mode.Unquoted) {
        let c = 0;
        while (pos < len) {
          c = s.charCodeAt(pos);
          if (c === delim || c === LF || c === CR) break;
          pos++;
        }
        if (pos >= len) {
          if (!final) {
            hold(pos);
            return;
          }
          endRecord(pos, pos);
          return;
        }
        if (c === delim) {
          endField(pos);
          pos++;
          continue;
        }
        // A line break: the record delimiter, or a character of the field.
        const n = this.delimiterAt(s, pos, final);
        if (n < 0) {
          hold(pos);
          return;
        }
        if (n === 0) {
          this.complex = true;
          pos++;
          continue;
        }
        endRecord(pos, pos + 1);
        pos += n;
        recordStart = pos;
        continue;
      }

      // Quoted: up to the next quote.
      const q = s.indexOf('"', pos);
      if (q < 0) {
        if (!final) {
          hold(len);
          return;
        }
        // The end of the input with the quote still open.
        let raw = buf.slice(recordStart);
        if (this.rawParts.length > 0) raw = this.rawParts.join('') + raw;
        this.rawParts = [];
        this.fieldParts = [];
        this.fields = [];
        this.mode = Mode.FieldStart;
        out.push({ fields: undefined, raw, lineEnds: -1 });
        return;
      }
      if (q + 1 >= len) {
        if (!final) {
          hold(q);
          return;
        }
        endRecord(q, len);
        return;
      }
      const next = s.charCodeAt(q + 1);
      if (next === QUOTE) {
        // An escaped quote: the text so far and one quote.
        this.fieldParts.push(buf.slice(fieldStart, q + 1));
        pos = q + 2;
        fieldStart = pos;
        continue;
      }
      if (next === delim) {
        endField(q);
        pos = q + 2;
        continue;
      }
      if (next === LF || next === CR) {
        const n = this.delimiterAt(s, q + 1, final);
        if (n < 0) {
          hold(q);
          return;
        }
        if (n > 0) {
          endRecord(q, q + 2);
          pos = q + 1 + n;
          recordStart = pos;
          continue;
        }
      }
      // A quote that neither escapes nor closes: the field goes on unquoted, beginning with
      // the quote that opened it and holding this one.
      const value = fieldText(q);
      this.fieldParts = ['"', value, '"'];
      this.mode = Mode.Unquoted;
      pos = q + 1;
      fieldStart = pos;
    }
  }

  /**
   * At a line break outside quotes: the length of the record delimiter there (found now if
   * it is the first), 0 when the break is a character of the field, -1 when the next piece
   * of text must tell (a \r at the end of this one).
   */
  private delimiterAt(buf: string, at: number, final: boolean): number {
    const c = buf.charCodeAt(at);
    const needsNext = c === CR && (this.rd === '' || this.rd === '\r\n');
    if (needsNext && at + 1 >= buf.length && !final) return -1;
    if (this.rd === '') this.rd = c === LF ? '\n' : buf.charCodeAt(at + 1) === LF ? '\r\n' : '\r';
    if (this.rd === '\n') return c === LF ? 1 : 0;
    if (this.rd === '\r') return c === CR ? 1 : 0;
    return c === CR && buf.charCodeAt(at + 1) === LF ? 2 : 0;
  }
}

function isBreak(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c === LF || c === CR;
}

/** The items of a whole text at once (a fresh tokenizer: its record delimiter found anew). */
export function tokenize(text: string, delimiter: string): CsvItem[] {
  const out: CsvItem[] = [];
  const t = new CsvTokenizer(delimiter);
  t.write(text, out);
  t.end(out);
  return out;
}
