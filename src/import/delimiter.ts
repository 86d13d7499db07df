// Which delimiter a CSV file uses, from its first lines: among `,` `;` tab and `|`, the
// one that appears in the header and the same number of times on the lines after it
// (outside quotes). Spreadsheets in many locales write `;`; some systems write tabs or
// pipes.

export const DELIMITERS = [',', ';', '\t', '|'] as const;

/** How a delimiter is named in messages. */
export function delimiterName(d: string): string {
  if (d === '\t') return 'tab';
  return `"${d}"`;
}

/** `--delimiter` values: a single character, or `tab`, `\t`, `comma`, `semicolon`, `pipe`. */
export function parseDelimiterFlag(value: string): string | undefined {
  const named: Record<string, string> = {
    tab: '\t',
    '\\t': '\t',
    comma: ',',
    semicolon: ';',
    pipe: '|',
  };
  const v = named[value.toLowerCase()] ?? value;
  return [...v].length === 1 && v !== '"' && v !== '\n' && v !== '\r' ? v : undefined;
}

/** Up to `max` physical records of `sample`, split on line ends outside double quotes. */
function sampleLines(sample: string, max: number): string[] {
  const lines: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < sample.length && lines.length < max; i++) {
    const c = sample[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) {
      if (i > start) lines.push(sample.slice(start, i));
      start = i + 1;
    }
  }
  // A last line cut off by the end of the sample is left out, unless it is the only one.
  if (lines.length === 0 && start < sample.length) lines.push(sample.slice(start));
  return lines;
}

function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === d) n++;
  }
  return n;
}

/**
 * The delimiter of the text that starts with `sample`: the candidate found in the header
 * whose count is the same on the most following lines; ties go to the one that splits
 * the header into more columns, then to the order `,` `;` tab `|`. A file of one column
 * (no candidate in the header) is read with `,`.
 */
export function detectDelimiter(sample: string, complete: boolean): string {
  const text = complete ? `${sample}\n` : sample;
  const lines = sampleLines(text, 50);
  if (lines.length === 0) return ',';
  const [header, ...rest] = lines as [string, ...string[]];
  let best: { d: string; agree: number; columns: number } | undefined;
  for (const d of DELIMITERS) {
    const columns = countOutsideQuotes(header, d);
    if (columns === 0) continue;
    const agree = rest.filter((l) => countOutsideQuotes(l, d) === columns).length;
    if (!best || agree > best.agree || (agree === best.agree && columns > best.columns)) {
      best = { d, agree, columns };
    }
  }
  return best?.d ?? ',';
}
