// One line per change for people at a terminal: when, the record's type and id, what
// happened, and what changed, before → after (a created record's values, a deleted one's
// name), cut to the terminal's width so that each change stays one line.
import type { IOStreams } from '../io/streams.ts';
import { cutToWidth, displayWidth, oneLine } from '../output/width.ts';
import { isPlainObject } from '../util/guards.ts';
import type { WatchEvent } from './event.ts';

/** Values shown for a created record before `…`. */
const MAX_VALUES = 6;

/** A value in a line: text as it is, lists joined, a reference by its name or id, none as —. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(valueText).join(', ');
  if (isPlainObject(value)) {
    const props = isPlainObject(value.properties) ? value.properties : {};
    for (const key of ['name', 'title', 'email']) {
      if (typeof props[key] === 'string' && props[key] !== '') return props[key] as string;
    }
    return typeof value.id === 'string' ? value.id : JSON.stringify(value);
  }
  return oneLine(String(value));
}

/** How a record is named in a line: its name, title or email, else nothing. */
function label(event: WatchEvent): string {
  for (const key of ['name', 'title', 'email']) {
    const v = event.record.default[key];
    if (typeof v === 'string' && v !== '') return `"${oneLine(v)}"`;
  }
  return '';
}

function details(event: WatchEvent): string {
  const changed = Object.entries(event.changes);
  for (const [listId, values] of Object.entries(event.list_changes ?? {})) {
    for (const [slug, change] of Object.entries(values))
      changed.push([`${listId}:${slug}`, change]);
  }
  switch (event.change) {
    case 'created':
    case 'entered': {
      const values = Object.entries(event.record.default).filter(([, v]) => v !== null);
      const shown = values.slice(0, MAX_VALUES).map(([slug, v]) => `${slug}: ${valueText(v)}`);
      if (values.length > MAX_VALUES) shown.push('…');
      return shown.join(' · ');
    }
    case 'updated':
      return changed
        .map(([slug, c]) => `${slug}: ${valueText(c.from)} → ${valueText(c.to)}`)
        .join(' · ');
    default:
      return label(event);
  }
}

/** The line of a change. */
export function changeLine(io: IOStreams, event: WatchEvent): string {
  const c = io.out;
  const time = new Date(event.at).toLocaleTimeString('en-GB');
  const word = event.change.padEnd(8);
  const painted =
    event.change === 'created' || event.change === 'entered'
      ? c.green(word)
      : event.change === 'updated'
        ? c.yellow(word)
        : event.change === 'restored'
          ? c.cyan(word)
          : c.red(word);
  const head = `${time}  ${event.type.padEnd(10)}  ${event.id}  ${word}  `;
  const text = details(event);
  // A terminal that reports no width (0: a pseudo-terminal opened without a size) cuts nothing.
  const width = io.columns || undefined;
  const room = width === undefined ? Number.POSITIVE_INFINITY : width - displayWidth(head);
  const shown = room === Number.POSITIVE_INFINITY ? text : cutToWidth(text, Math.max(room, 8));
  return `${c.dim(time)}  ${event.type.padEnd(10)}  ${c.dim(event.id)}  ${painted}  ${shown}`.trimEnd();
}
