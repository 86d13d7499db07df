// Messages for people on a terminal, broken into lines between words at the terminal's
// width, so that the terminal does not break them mid-word (wrap-ansi, which keeps colour
// codes whole). A word longer than the width (a URL) stays whole on a line of its own.
import wrapAnsi from 'wrap-ansi';

/** `text` in lines of at most `width` columns, broken between words; as it is without a width. */
export function wrapText(text: string, width: number | undefined, indent = ''): string {
  if (width === undefined) return text;
  const lines = wrapAnsi(text, Math.max(1, width - indent.length), { hard: false, trim: true });
  return indent === '' ? lines : lines.replace(/\n/g, `\n${indent}`);
}
