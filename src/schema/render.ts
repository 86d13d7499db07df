// How a plan and the changes of an apply look: one line per definition, marked like a
// terraform or kubectl plan (+ create, ~ update, - delete, = unchanged, ! cannot be
// applied), with the changed fields and the options indented below; coloured on a terminal.
import type { ChalkInstance } from 'chalk';
import type { Action, Change, FieldChange, OptionStep, Plan, PropertyStep } from './plan.ts';
import { summary } from './plan.ts';

const MARK: Record<Action, string> = { create: '+', update: '~', delete: '-', unchanged: '=' };

function paint(c: ChalkInstance, action: Action | 'problem', text: string): string {
  switch (action) {
    case 'create':
      return c.green(text);
    case 'update':
      return c.yellow(text);
    case 'delete':
      return c.red(text);
    case 'problem':
      return c.red.bold(text);
    default:
      return c.dim(text);
  }
}

function show(v: unknown): string {
  return v === null || v === undefined ? 'none' : JSON.stringify(v);
}

function fieldText(f: FieldChange): string {
  return `${f.field} ${show(f.from)} → ${show(f.to)}`;
}

/** `select_str "Lead source", required`: what a created definition is. */
function created(s: PropertyStep): string {
  const p = s.desired!;
  const extra = s.fields
    .filter((f) => !['name', 'type', 'required'].includes(f.field))
    .map((f) => `${f.field} ${show(f.to)}`);
  return [`${p.type} ${show(p.name)}`, ...(p.required ? ['required'] : []), ...extra].join(', ');
}

function optionLine(c: ChalkInstance, o: OptionStep): string {
  const mark = MARK[o.action];
  let text = `${mark} option ${o.slug}`;
  if (o.action === 'create') {
    const rest = o.fields
      .filter((f) => f.field !== 'value' && f.field !== 'sort_index')
      .map((f) => `${f.field} ${show(f.to)}`);
    text += `: ${show(o.desired?.value)}${rest.length > 0 ? ` (${rest.join(', ')})` : ''}`;
  } else if (o.action === 'update') {
    text += `: ${o.fields.map(fieldText).join(', ')}`;
  }
  return `    ${paint(c, o.action, text)}`;
}

/** The lines of one step: the definition, its changed fields, its options. */
export function stepLines(c: ChalkInstance, s: PropertyStep): string[] {
  const name = `${s.objectType}.${s.slug}`;
  if (s.problem !== undefined) return [paint(c, 'problem', `! ${name}: ${s.problem}`)];
  const lines: string[] = [];
  switch (s.action) {
    case 'create':
      lines.push(paint(c, 'create', `+ ${name} (${created(s)})`));
      break;
    case 'update':
      lines.push(paint(c, 'update', `~ ${name}`));
      for (const f of s.fields) lines.push(`    ${paint(c, 'update', fieldText(f))}`);
      break;
    case 'delete':
      lines.push(paint(c, 'delete', `- ${name}`));
      break;
    case 'unchanged':
      lines.push(paint(c, 'unchanged', `= ${name}`));
      break;
  }
  for (const o of s.options) lines.push(optionLine(c, o));
  return lines;
}

/** `Plan: 1 to create, 2 to update, 0 to delete, 5 unchanged.` */
export function summaryLine(plan: Plan): string {
  const n = summary(plan);
  const del = plan.prune ? `, ${n.delete} to delete` : '';
  const bad = n.problem > 0 ? `, ${n.problem} cannot be applied` : '';
  return `Plan: ${n.create} to create, ${n.update} to update${del}, ${n.unchanged} unchanged${bad}.`;
}

/** The whole plan as text, ending with its summary line. */
export function planText(c: ChalkInstance, plan: Plan): string {
  const lines = plan.steps.flatMap((s) => stepLines(c, s));
  lines.push(summaryLine(plan));
  return `${lines.join('\n')}\n`;
}

/** One change made by an apply, as a line: `+ contact.stage option won (value "Won", …)`. */
export function changeLine(c: ChalkInstance, ch: Change): string {
  const name = `${ch.object_type}.${ch.property}${ch.option === null ? '' : ` option ${ch.option}`}`;
  const fields = ch.changes.map((f) =>
    ch.action === 'create' ? `${f.field} ${show(f.to)}` : fieldText(f),
  );
  return paint(
    c,
    ch.action,
    `${MARK[ch.action]} ${name}${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`,
  );
}
