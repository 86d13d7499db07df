// What `ws import` found out about a file by itself, said once before the rows are sent
// (and kept in the --json summary): an encoding other than UTF-8, a delimiter other than
// a comma, a header below a preamble, and the decimal mark and date order the first rows
// showed, each with the evidence, and the flag that would say otherwise.
import { delimiterName } from './delimiter.ts';
import type { InputSource } from './input.ts';
import type { FileEvidence } from './locale.ts';
import type { HeaderEvent, PreambleEvent } from './reader.ts';
import type { TypingOptions } from './typing.ts';

/** How the summary's `reading` tells how the file was read. */
export interface ReadingReport {
  encoding: string;
  delimiter: string;
  header_line: number;
  /** Lines before the header that were skipped. */
  preamble_lines: number[];
  /** The decimal mark of the number columns (null: not one for all, or none known). */
  decimal_mark: string | null;
  /** The order of day and month of the date columns (null: not one for all, or none known). */
  date_order: string | null;
  /** What was detected, as said on stderr. */
  detected: string[];
}

export interface ReadingFacts {
  label: string;
  source: InputSource;
  delimiter: string;
  delimiterGiven: boolean;
  header: HeaderEvent;
  headerGiven: boolean;
  preamble: readonly PreambleEvent[];
  evidence: FileEvidence;
  typing: ReadonlyMap<number, TypingOptions>;
}

function quoted(text: string): string {
  const t = text.trim();
  return JSON.stringify(t.length > 30 ? `${t.slice(0, 29)}…` : t);
}

/** The sentences of what was detected (empty when the file is read as every default says). */
export function readingNotes(f: ReadingFacts): string[] {
  const notes: string[] = [];
  const why = f.source.detected();
  if (why !== undefined) notes.push(`${f.source.encoding()}, by ${why} (--encoding to choose)`);
  if (!f.delimiterGiven && f.delimiter !== ',') {
    notes.push(`${f.delimiter === '\t' ? 'tab' : delimiterName(f.delimiter)}-separated`);
  }
  if (!f.headerGiven && f.preamble.length > 0) {
    const n = f.preamble.length;
    notes.push(
      `the header is on line ${f.header.line}; ${n === 1 ? 'the line' : `${n} lines`} before it skipped (${f.preamble
        .slice(0, 2)
        .map((p) => quoted(p.fields.find((x) => x.trim() !== '') ?? ''))
        .join(', ')}${n > 2 ? ', …' : ''}; --header-line ${f.header.line} says so)`,
    );
  }
  const fromFile = (get: (t: TypingOptions) => unknown) =>
    [...f.typing.values()].some((t) => get(t) !== undefined);
  const { decimal, order } = f.evidence;
  const usesNumbers = fromFile((t) => t.numbers?.source?.startsWith('the file') || undefined);
  if (decimal.value !== undefined && usesNumbers) {
    notes.push(
      `numbers with a decimal ${decimal.value === ',' ? 'comma' : 'point'}, as ${decimal.reason} shows (--locale to choose)`,
    );
  } else if (decimal.value === undefined && decimal.reason !== undefined) {
    notes.push(
      `${decimal.reason}: a number that reads two ways fails its row (--locale to choose)`,
    );
  }
  const usesDates = [...f.typing.values()].some(
    (t) => t.dates !== undefined && t.dateOrder !== undefined && t.dateOrder === order.value,
  );
  if (order.value !== undefined && usesDates) {
    notes.push(
      `dates ${order.value === 'dmy' ? 'day' : 'month'} first, as ${order.reason} shows (--date-format to choose)`,
    );
  } else if (order.value === undefined && order.reason !== undefined) {
    notes.push(
      `${order.reason}: a date that reads two ways fails its row (--date-format to choose)`,
    );
  }
  return notes;
}
