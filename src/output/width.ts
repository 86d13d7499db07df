// How wide text is on a terminal, in columns, and how to cut it to a width: what a table
// needs to fit the terminal without wrapping. Wide characters (CJK, most emoji) take two
// columns, combining marks and zero-width characters none.

/** Text of printable ASCII only: one column per character. */
const ASCII = /^[\x20-\x7e]*$/;
// Combining marks (variation selectors among them) and format characters (zero-width
// spaces and joiners).
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const EMOJI = /\p{Emoji_Presentation}/u;

/** East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth W and F), the common ones. */
function wide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** The columns one character takes. */
function charWidth(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (ZERO_WIDTH.test(ch)) return 0;
  if (wide(cp) || EMOJI.test(ch)) return 2;
  return 1;
}

/** The columns `text` takes on a terminal (text without escape sequences). */
export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text) width += charWidth(ch);
  return width;
}

/** `text` cut to at most `width` columns, ending in `…` when something was cut. */
export function cutToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = charWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
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
