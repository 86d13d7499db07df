// How wide text is on a terminal, in columns, and how to cut it to a width: what a table
// needs to fit the terminal without wrapping. Wide characters (CJK, most emoji) take two
// columns, combining marks and zero-width characters none: string-width measures them (the
// measure cli-table3, which draws the tables, uses too).
import stringWidth from 'string-width';

/** Text of printable ASCII only: one column per character. */
const ASCII = /^[\x20-\x7e]*$/;

/** The columns `text` takes on a terminal (text without escape sequences). */
export function displayWidth(text: string): number {
  return ASCII.test(text) ? text.length : stringWidth(text);
}

/** `text` cut to at most `width` columns, ending in `end` (`…`) when something was cut. */
export function cutToWidth(text: string, width: number, end = '…'): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  const room = width - displayWidth(end);
  if (room < 0) return cutToWidth(end, width, '');
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = stringWidth(ch);
    if (used + w > room) break;
    out += ch;
    used += w;
  }
  return `${out}${end}`;
}

/**
 * A cell's text on one line: line breaks and tabs become spaces, and other control
 * characters (which would move the cursor or change colours) a visible `�`.
 */
export function oneLine(text: string): string {
  if (!/[\x00-\x1f\x7f-\x9f]/.test(text)) return text;
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/\t/g, ' ')
    .replace(/[\x00-\x1f\x7f-\x9f]/g, '\ufffd');
}
