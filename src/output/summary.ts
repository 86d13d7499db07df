// A summary for people at the end of a long command, on stderr: a headline marked ✓ (all
// went well) or ! (not all did), counts in aligned columns with a note each, dim notes, and
// a titled list (the first problems) ending in "… and N more". The command decides what it
// says; this decides how it looks. Nothing is printed with --quiet.
import type { IOStreams } from '../io/streams.ts';
import { thousands } from './plural.ts';

export interface SummaryView {
  ok: boolean;
  headline: string;
  counts: { label: string; value: number; note?: string | undefined }[];
  notes: string[];
  list?: { title: string; items: { text: string; tag: string }[]; more: number } | undefined;
}

export function printSummary(io: IOStreams, s: SummaryView): void {
  if (io.quiet) return;
  const e = io.err;
  const n = thousands;
  const lines = [`${s.ok ? e.green('✓') : e.yellow('!')} ${s.headline}`];
  const width = Math.max(10, ...s.counts.map((c) => c.label.length));
  for (const c of s.counts)
    lines.push(
      `  ${c.label.padEnd(width)} ${n(c.value).padStart(9)}${c.note ? `  ${c.note}` : ''}`,
    );
  for (const note of s.notes) lines.push(e.dim(`  ${note}`));
  if (s.list && s.list.items.length > 0) {
    lines.push(`${s.list.title}:`);
    for (const item of s.list.items) lines.push(`  ${item.text} ${e.dim(`(${item.tag})`)}`);
    if (s.list.more > 0) lines.push(e.dim(`  … and ${n(s.list.more)} more`));
  }
  io.stderr.write(`${lines.join('\n')}\n`);
}
