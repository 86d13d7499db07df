// ws records edit TYPE ID: the record's values as YAML in $VISUAL/$EDITOR; what changed is
// sent with If-Match. When the record changed meanwhile (412), the edits are kept in the
// file on top of the record's current values, what changed on the server is listed, and
// the command to go on is printed.
// node:fs's promises (and node:child_process, below) load when the edit runs, not when the
// records verbs load for `ws records list`.
import { promises as fs } from 'node:fs';
import type * as Os from 'node:os';
import { basename, join } from 'node:path';
import type { RecordType } from '../../api/object-types.ts';
import { getRecord, updateRecord } from '../../api/records.ts';
import { ApiError, ConflictError, UsageError, WsError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { builtin } from '../../util/builtin.ts';
import { shellWord } from '../../util/shell.ts';
import { loadYaml } from '../../util/yaml.ts';
import { expected } from '../../values/coerce.ts';
import { sameValue, valueText, writeFormOf } from '../../values/write-form.ts';
import { recordId, recordType } from '../common/record-args.ts';
import { checkValues } from '../common/record-values.ts';
import { definitions, type PropertyDefinition, printRecord } from './shared.ts';

export interface EditOptions {
  type: string;
  id: string;
  /** Start from this file (kept by an earlier edit) instead of the record's values. */
  from?: string | undefined;
}

type Values = Record<string, unknown>;

/** The editor command: $VISUAL, then $EDITOR, then vi on a terminal. */
export function editorCommand(deps: Deps): string {
  const chosen = deps.env.VISUAL?.trim() || deps.env.EDITOR?.trim();
  if (chosen) return chosen;
  if (deps.io.isStdinTTY && deps.io.isStdoutTTY) return 'vi';
  throw new UsageError(
    'No editor: set $VISUAL or $EDITOR (without a terminal there is no default).',
    'Or change values with `ws records update TYPE ID --set slug=value`.',
  );
}

const KEPT = /^ws-edit-.*\.yaml$/;

/** `$TMPDIR/ws-edit-<type>-<id>.yaml`, or with -2, -3 … when an earlier one is kept there. */
async function freshPath(type: RecordType, id: string): Promise<string> {
  for (let n = 1; ; n++) {
    // node:os loads here, not with every records verb (they load together).
    const path = join(
      builtin<typeof Os>('node:os').tmpdir(),
      `ws-edit-${type}-${id}${n === 1 ? '' : `-${n}`}.yaml`,
    );
    const taken = await fs.access(path).then(
      () => true,
      () => false,
    );
    if (!taken) return path;
  }
}

/** The YAML the editor shows: a comment saying how, then every property (unset ones as null). */
export async function renderYaml(
  type: RecordType,
  id: string,
  values: Values,
  defs: readonly PropertyDefinition[],
  note?: string,
): Promise<string> {
  const YAML = await loadYaml();
  const shown: Values = {};
  for (const d of defs) shown[d.slug] = values[d.slug] ?? null;
  for (const [k, v] of Object.entries(values)) if (!(k in shown)) shown[k] = v;
  const doc = new YAML.Document(shown);
  doc.commentBefore = [
    ` ws records edit ${type} ${id}`,
    ' Change values and save to send them; write null to clear a value (a line taken out',
    ' leaves its value as it is).',
    ' Lists are written [a, b]; select values take option slugs or display values.',
    ' Save an empty file to cancel.',
    ...(note ? ['', ...note.split('\n').map((l) => ` ${l}`)] : []),
  ].join('\n');
  const byslug = new Map(defs.map((d) => [d.slug, d]));
  const contents = doc.contents as {
    items?: { key: { value: unknown; commentBefore?: string }; value: unknown }[];
  };
  for (const pair of contents.items ?? []) {
    if (YAML.isCollection(pair.value)) (pair.value as { flow: boolean }).flow = true;
    const def = byslug.get(String(pair.key.value));
    if (def && (def.type === 'select_str' || def.type === 'multiselect_str'))
      pair.key.commentBefore = ` ${def.slug}: ${expected(def)}`;
  }
  return doc.toString({ lineWidth: 0 });
}

async function runEditor(command: string, file: string, signal: AbortSignal): Promise<void> {
  const { spawn } = builtin<typeof import('node:child_process')>('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(`${command} ${shellWord(file)}`, { shell: true, stdio: 'inherit', signal });
    child.on('error', (e) => reject(e));
    child.on('exit', (code, sig) => {
      if (code === 0) resolve();
      else
        reject(
          new WsError(
            `The editor (${command}) ${sig ? `was stopped by ${sig}` : `exited with ${code}`}; nothing was sent.`,
            { code: 'cancelled', hint: `Your text is in ${file}.` },
          ),
        );
    });
  });
}

/** The edited values, or a usage error that keeps the file and says how to go on. */
async function readEdited(file: string, retry: string): Promise<Values | undefined> {
  const text = await fs.readFile(file, 'utf8');
  if (text.split('\n').every((l) => l.trim() === '' || l.trim().startsWith('#'))) return undefined;
  const YAML = await loadYaml();
  let parsed: unknown;
  try {
    parsed = YAML.parse(text);
  } catch (e) {
    throw new UsageError(
      `The edited text is not valid YAML: ${(e as Error).message.split('\n')[0]}`,
      `Nothing was sent. Your text is kept in ${file}; fix it with: ${retry}`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(
      'The edited text must be a mapping of property slugs to values (slug: value lines).',
      `Nothing was sent. Your text is kept in ${file}; fix it with: ${retry}`,
    );
  }
  return parsed as Values;
}

/** The values of `after` that differ from `before` (a line taken out changes nothing). */
function changesOf(before: Values, after: Values): Values {
  const out: Values = {};
  for (const [k, next] of Object.entries(after))
    if (!sameValue(before[k] ?? null, next ?? null)) out[k] = next;
  return out;
}

function listing(pairs: [string, unknown, unknown][], mark?: (slug: string) => string): string[] {
  return pairs.map(
    ([slug, from, to]) => `  ${slug}: ${valueText(from)} → ${valueText(to)}${mark?.(slug) ?? ''}`,
  );
}

export async function run(opts: EditOptions, deps: Deps): Promise<void> {
  const type = recordType(opts.type);
  const id = recordId(opts.id);
  const editor = editorCommand(deps);
  const defs = await definitions(deps, type);
  const client = await deps.client();
  const read = await getRecord(client, type, id, { signal: deps.signal });
  const base = writeFormOf(read.record.default);
  const file = opts.from ?? (await freshPath(type, id));
  const retry = `ws records edit ${type} ${id} --from ${shellWord(file)}`;
  if (opts.from === undefined) {
    await fs.writeFile(file, await renderYaml(type, id, base, defs), { mode: 0o600 });
  } else {
    await fs.access(opts.from).catch(() => {
      throw new UsageError(`Cannot read --from ${opts.from}: no such file.`);
    });
  }
  const cleanup = async () => {
    if (KEPT.test(basename(file))) await fs.rm(file, { force: true });
  };

  await runEditor(editor, file, deps.signal);
  const edited = await readEdited(file, retry);
  if (edited === undefined) {
    await cleanup();
    throw new WsError('Cancelled: the file was empty; nothing was sent.', { code: 'cancelled' });
  }
  const raw = changesOf(base, edited);
  const checked = checkValues(raw, defs, type);
  if (checked.problems.length > 0) {
    throw new UsageError(
      `Nothing was sent; the edited values have ${checked.problems.length === 1 ? 'a problem' : 'problems'}:\n${checked.problems.map((p) => `  ${p}`).join('\n')}`,
      `Your text is kept in ${file}; fix it with: ${retry}`,
    );
  }
  const changes: Values = {};
  for (const [k, v] of Object.entries(checked.values))
    if (!sameValue(base[k] ?? null, v)) changes[k] = v;
  if (Object.keys(changes).length === 0) {
    await cleanup();
    deps.io.info(`No changes to ${type} ${id}; nothing was sent.`);
    return;
  }
  try {
    const answer = await updateRecord(
      client,
      type,
      id,
      { default: changes },
      { ifMatch: read.etag, signal: deps.signal },
    );
    await cleanup();
    deps.io.success(`Updated ${type} ${id}: ${Object.keys(changes).join(', ')}.`);
    await printRecord(deps, type, answer);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 412) throw err;
    await keepAfterConflict({ deps, type, id, base, changes, defs, file, retry, err }, client);
  }
}

async function keepAfterConflict(
  c: {
    deps: Deps;
    type: RecordType;
    id: string;
    base: Values;
    changes: Values;
    defs: readonly PropertyDefinition[];
    file: string;
    retry: string;
    err: ApiError;
  },
  client: Parameters<typeof getRecord>[0],
): Promise<never> {
  const now = writeFormOf(
    (await getRecord(client, c.type, c.id, { signal: c.deps.signal })).record.default,
  );
  const serverSide: [string, unknown, unknown][] = [];
  for (const k of new Set([...Object.keys(c.base), ...Object.keys(now)])) {
    if (!sameValue(c.base[k] ?? null, now[k] ?? null)) serverSide.push([k, c.base[k], now[k]]);
  }
  const mine: [string, unknown, unknown][] = Object.entries(c.changes).map(([k, v]) => [
    k,
    c.base[k],
    v,
  ]);
  const both = new Set(serverSide.map(([k]) => k).filter((k) => k in c.changes));
  const note = [
    'This record changed on the server while you edited it; nothing was sent.',
    'Below are its current values with your changes on top:',
    ...listing(mine, (s) => (both.has(s) ? '  (also changed on the server)' : '')),
  ].join('\n');
  await fs.writeFile(
    c.file,
    await renderYaml(c.type, c.id, { ...now, ...c.changes }, c.defs, note),
    {
      mode: 0o600,
    },
  );
  const io = c.deps.io;
  const lines = [
    `Changed on the server since you opened ${c.type} ${c.id}:`,
    ...(serverSide.length > 0 ? listing(serverSide) : ['  (no value changed: only its version)']),
    'Your changes:',
    ...listing(mine, (s) => (both.has(s) ? `  ${io.err.yellow('(conflict)')}` : '')),
  ];
  io.stderr.write(`${lines.join('\n')}\n`);
  throw new ConflictError(
    `${c.type} ${c.id} changed on the server while you edited it (412 precondition_failed); your changes were not sent.`,
    `Your changes are kept in ${c.file}, on top of the current values. Review them and send with: ${c.retry}`,
  );
}
