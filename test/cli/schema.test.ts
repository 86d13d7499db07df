// The schema as code: ws props export, diff and apply against two sandboxes, with TTY on
// and off: a round trip between workspaces, idempotent applies, plans of edits, prune,
// bad files, and an apply that stops at an API error.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { parse } from 'yaml';
import { propertiesOf } from '../../src/sandbox/resources/properties/model.ts';
import { runWs, scriptedPrompter } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox, writeProfiles } from '../helpers/sandbox.ts';

let source: TestSandbox;
let target: TestSandbox;
let env: Record<string, string>;
let ttyEnv: Record<string, string>;
let dir: string;
const LIST = '6b7d1f1e-2c0a-4e55-9a37-1d2f3e4a5b6c';

before(async () => {
  [source, target] = await Promise.all([startTestSandbox(), startTestSandbox()]);
  const profile = (s: TestSandbox) => ({
    base_url: s.sandbox.url,
    team_id: s.sandbox.teamId,
    api_key: s.sandbox.apiKey,
    rate_limit: 0,
  });
  writeProfiles(source.configDir, { source: profile(source), target: profile(target) }, 'source');
  env = { WS_CONFIG_DIR: source.configDir };
  ttyEnv = { ...env, NO_COLOR: '1' };
  dir = mkdtempSync(join(tmpdir(), 'ws-schema-'));
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await Promise.all([source.stop(), target.stop()]);
});

beforeEach(() => {
  for (const s of [source, target]) propertiesOf(s.sandbox.store).reset();
  rmSync(join(source.configDir, 'cache'), { recursive: true, force: true });
});

const ws = (argv: string[], opts: Parameters<typeof runWs>[1] = {}) =>
  runWs(argv, { env, ...opts });
const file = (name: string, text?: string) => {
  const path = join(dir, name);
  if (text !== undefined) writeFileSync(path, text);
  return path;
};
const own = (s: TestSandbox, type = 'contact') =>
  propertiesOf(s.sandbox.store)
    .all(s.sandbox.teamId, type)
    .filter((d) => d.team_id !== null);

async function ok(argv: string[], opts: Parameters<typeof runWs>[1] = {}) {
  const r = await ws(argv, opts);
  assert.equal(r.code, 0, `ws ${argv.join(' ')}: ${r.stderr}`);
  return r;
}

/** A workspace with a bit of everything: options with colours, a disabled and a list-scoped definition, a non-default role. */
async function furnish(): Promise<void> {
  await ok([
    'props',
    'create',
    'contact',
    '--name',
    'Lead source',
    '--type',
    'select_str',
    '--option',
    'Web',
    '--option',
    'Referral',
    '--required',
  ]);
  await ok([
    'props',
    'options',
    'update',
    'contact',
    'lead_source',
    'web',
    '--color-scheme',
    'blue',
    '--description',
    'Came through the site',
  ]);
  await ok([
    'props',
    'options',
    'add',
    'contact',
    'lead_source',
    'Trade show',
    '--slug',
    'event',
    '--group',
    'Offline',
  ]);
  await ok([
    'props',
    'create',
    'contact',
    '--name',
    'LinkedIn URL',
    '--type',
    'str',
    '--role-id',
    emailRole(),
  ]);
  await ok([
    'props',
    'create',
    'deals',
    '--name',
    'Loss reason',
    '--type',
    'text',
    '--icon',
    'flag',
  ]);
  await ok(['props', 'update', 'deal', 'loss_reason', '--disable']);
  await ok([
    'props',
    'create',
    'deal',
    '--name',
    'Pipeline step',
    '--type',
    'num',
    '--list-id',
    LIST,
  ]);
}

/** The role of the shared `email` definition: a display format that is not str's default. */
function emailRole(): string {
  return propertiesOf(source.sandbox.store)
    .defaults('contact')
    .find((d) => d.slug === 'email')!.role_id!;
}

describe('ws props export, diff and apply', () => {
  it('round trip: export, apply to a fresh workspace, same export; a second apply does nothing', async () => {
    // furnish() creates through ws: the roles given to definitions created without one are
    // learnt as their types' defaults, and the export leaves them out.
    await furnish();
    const exported = await ok(['props', 'export']);
    assert.match(exported.stderr, /Exported 4 properties of 2 object types\./);
    const yaml = exported.stdout;
    assert.ok(!/\bid: /.test(yaml), 'no ids of definitions or options');
    assert.match(yaml, /^# Property definitions/);
    assert.match(
      yaml,
      /\n {4}lead_source:\n {6}name: Lead source\n {6}type: select_str\n {6}required: true\n {6}options:\n {8}- slug: web\n {10}value: Web\n {10}color_scheme: blue\n {10}description: Came through the site\n {8}- slug: referral\n {10}value: Referral\n {8}- slug: event\n {10}value: Trade show\n {10}option_group: Offline\n/,
    );
    assert.match(
      yaml,
      /\n {4}loss_reason:\n {6}name: Loss reason\n {6}type: text\n {6}required: false\n {6}icon: flag\n {6}enabled: false\n/,
    );
    assert.match(
      yaml,
      new RegExp(
        `\\n {4}pipeline_step:\\n {6}name: Pipeline step\\n {6}type: num\\n {6}required: false\\n {6}list_id: ${LIST}\\n`,
      ),
    );
    assert.match(
      yaml,
      new RegExp(
        `\\n {4}linkedin_url:\\n {6}name: LinkedIn URL\\n {6}type: str\\n {6}required: false\\n {6}role_id: ${emailRole()}\\n`,
      ),
    );
    assert.equal(yaml.match(/role_id/g)?.length, 1, 'only the role that is not the default');
    const path = file('schema.yaml', yaml);

    const applied = await ok(['props', 'apply', '-f', path, '--profile', 'target']);
    assert.equal(
      applied.stdout.replace(/"[0-9a-f-]{36}"/g, '"ID"'),
      [
        '+ contact.lead_source (name "Lead source", type "select_str", required true)',
        '+ contact.lead_source option web (value "Web", color_scheme "blue", description "Came through the site", sort_index 0)',
        '+ contact.lead_source option referral (value "Referral", sort_index 1)',
        '+ contact.lead_source option event (value "Trade show", option_group "Offline", sort_index 2)',
        '+ contact.linkedin_url (name "LinkedIn URL", type "str", required false, role_id "ID")',
        '+ deal.loss_reason (name "Loss reason", type "text", required false, icon "flag")',
        '~ deal.loss_reason (enabled true → false)',
        '+ deal.pipeline_step (name "Pipeline step", type "num", required false, list_id "ID")',
        '',
      ].join('\n'),
    );
    assert.match(applied.stderr, /✓ Applied .*schema\.yaml: 7 created, 1 updated, 0 deleted\./);

    const again = await ok(['props', 'export', '--profile', 'target']);
    assert.equal(again.stdout, yaml);

    const second = await ok(['props', 'apply', '-f', path, '--profile', 'target']);
    assert.equal(second.stdout, '');
    assert.match(second.stderr, /Nothing to do: the workspace matches .*schema\.yaml\./);
    const diff = await ws(['props', 'diff', '-f', path, '--profile', 'target']);
    assert.equal(diff.code, 0, diff.stderr);
    assert.match(
      diff.stdout,
      /^= contact\.lead_source\n= contact\.linkedin_url\n= deal\.loss_reason\n= deal\.pipeline_step\nPlan: 0 to create, 0 to update, 4 unchanged\.\n$/,
    );
  });

  it('a file without role_id, applied and exported again, gives the same definitions: default roles are left out', async () => {
    const example = new URL('../../examples/schema.yaml', import.meta.url).pathname;
    await ok(['props', 'apply', '-f', example, '--profile', 'target']);
    const exported = (await ok(['props', 'export', '--profile', 'target'])).stdout;
    assert.doesNotMatch(exported, /role_id/);
    assert.deepEqual(parse(exported), parse(readFileSync(example, 'utf8')));
    // Applied to another workspace and exported there: the very same file.
    const path = file('example.yaml', exported);
    await ok(['props', 'apply', '-f', path]);
    assert.equal((await ok(['props', 'export'])).stdout, exported);
    // Roles nobody learnt (the cache folder removed): every role_id is written, as it is.
    rmSync(join(source.configDir, 'cache'), { recursive: true, force: true });
    const unknown = (await ok(['props', 'export'])).stdout;
    assert.equal(unknown.match(/role_id: [0-9a-f-]{36}/g)?.length, 5);
  });

  it('a diff after an edit of the file lists exactly that edit (a renamed option is an update)', async () => {
    await furnish();
    const yaml = (await ok(['props', 'export', 'contacts'])).stdout;
    const path = file('edit.yaml', yaml.replace('value: Referral', 'value: Word of mouth'));
    const diff = await ws(['props', 'diff', '-f', path]);
    assert.equal(diff.code, 1);
    assert.equal(
      diff.stdout,
      '~ contact.lead_source\n    ~ option referral: value "Referral" → "Word of mouth"\n= contact.linkedin_url\nPlan: 0 to create, 1 to update, 1 unchanged.\n',
    );
    assert.match(diff.stderr, /differs from .*edit\.yaml: 0 to create, 1 to update\./);
    assert.ok(
      !diff.stderr.includes('error:'),
      'differences are not an error (exit 1, as kubectl diff)',
    );
    const json = await ws(['props', 'diff', '-f', path, '--json']);
    assert.equal(json.code, 1);
    // stderr is the JSON error form, one line (as docs/scripting.md says), nothing else.
    const error = JSON.parse(json.stderr).error;
    assert.equal(error.code, 'differences');
    assert.match(error.message, /differs from .*edit\.yaml: 0 to create, 1 to update\./);
    assert.equal(json.stderr.trim().split('\n').length, 1);
    assert.deepEqual(
      JSON.parse(json.stdout).filter((c: { action: string }) => c.action !== 'unchanged'),
      [
        {
          action: 'update',
          object_type: 'contact',
          property: 'lead_source',
          option: 'referral',
          changes: [{ field: 'value', from: 'Referral', to: 'Word of mouth' }],
        },
      ],
    );
    const before = own(source)[0]!.options!.find((o) => o.slug === 'referral')!.id;
    const applied = await ok(['props', 'apply', '-f', path, '--json']);
    assert.deepEqual(JSON.parse(applied.stdout), [
      {
        action: 'update',
        object_type: 'contact',
        property: 'lead_source',
        option: 'referral',
        changes: [{ field: 'value', from: 'Referral', to: 'Word of mouth' }],
      },
    ]);
    const afterOpt = own(source)[0]!.options!.find((o) => o.slug === 'referral')!;
    assert.deepEqual([afterOpt.id, afterOpt.value], [before, 'Word of mouth']);
    assert.equal((await ws(['props', 'diff', '-f', path])).code, 0);
  });

  it('new options take their place in the file order; a reorder renumbers', async () => {
    await furnish();
    const yaml = (await ok(['props', 'export', 'contact'])).stdout;
    const inserted = yaml.replace(
      '        - slug: referral\n',
      '        - slug: partner\n          value: Partner\n        - slug: referral\n',
    );
    await ok(['props', 'apply', '-f', file('insert.yaml', inserted)]);
    assert.deepEqual(
      own(source)[0]!.options!.map((o) => o.slug),
      ['web', 'partner', 'referral', 'event'],
    );
    const exported = (await ok(['props', 'export', 'contact'])).stdout;
    assert.equal(exported, inserted);
    const reordered = inserted
      .replace(
        '        - slug: event\n          value: Trade show\n          option_group: Offline\n',
        '',
      )
      .replace(
        '      options:\n',
        '      options:\n        - slug: event\n          value: Trade show\n          option_group: Offline\n',
      );
    await ok(['props', 'apply', '-f', file('reorder.yaml', reordered)]);
    assert.deepEqual(
      own(source)[0]!.options!.map((o) => o.slug),
      ['event', 'web', 'partner', 'referral'],
    );
    assert.equal((await ok(['props', 'export', 'contact'])).stdout, reordered);
  });

  it('--dry-run prints the plan and changes nothing; stdin works as -f -', async () => {
    const text = readFileSync(new URL('../../examples/schema.yaml', import.meta.url), 'utf8');
    const r = await ws(['props', 'apply', '-f', '-', '--dry-run'], { stdin: text });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^\+ contact\./m);
    assert.match(r.stderr, /Dry run: nothing was changed\./);
    assert.deepEqual(own(source), []);
    const applied = await ws(['props', 'apply', '-f', '-'], { stdin: text });
    assert.equal(applied.code, 0, applied.stderr);
    const diff = await ws(['props', 'diff', '-f', '-'], { stdin: text });
    assert.equal(diff.code, 0, diff.stdout + diff.stderr);
  });

  it('deletes only with --prune, which needs --yes off a terminal or a yes on one', async () => {
    await furnish();
    const path = file(
      'small.yaml',
      (await ok(['props', 'export', 'contact'])).stdout.replace(
        /\n {4}linkedin_url:\n(.*\n)*$/,
        '\n',
      ),
    );
    await ok(['props', 'options', 'add', 'contact', 'lead_source', 'Cold call']);

    const plain = await ws(['props', 'diff', '-f', path]);
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    assert.match(
      plain.stderr,
      /left as they are \(--prune deletes them\): contact\.lead_source option cold_call, contact\.linkedin_url\./,
    );

    const pruned = await ws(['props', 'diff', '-f', path, '--prune']);
    assert.equal(pruned.code, 1);
    assert.equal(
      pruned.stdout,
      '~ contact.lead_source\n    - option cold_call\n- contact.linkedin_url\nPlan: 0 to create, 1 to update, 1 to delete, 0 unchanged.\n',
    );

    const refused = await ws(['props', 'apply', '-f', path, '--prune']);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /Not deleting 1 property and 1 option without confirmation; nothing was changed\./,
    );
    assert.equal(own(source).length, 2);

    const no = scriptedPrompter({ 'Delete 1 property and 1 option': false });
    const cancelled = await ws(['props', 'apply', '-f', path, '--prune'], {
      env: ttyEnv,
      tty: true,
      prompter: no,
    });
    assert.equal(cancelled.code, 1);
    assert.match(cancelled.stderr, /- contact\.linkedin_url\n/);
    assert.equal(own(source).length, 2);

    const yes = scriptedPrompter({ 'Delete 1 property and 1 option': true });
    const done = await ws(['props', 'apply', '-f', path, '--prune'], {
      env: ttyEnv,
      tty: true,
      prompter: yes,
    });
    assert.equal(done.code, 0, done.stderr);
    assert.equal(done.stdout, '- contact.lead_source option cold_call\n- contact.linkedin_url\n');
    assert.deepEqual(
      own(source).map((d) => d.slug),
      ['lead_source'],
    );
    assert.equal((await ws(['props', 'diff', '-f', path, '--prune'])).code, 0);
    // Object types the file does not name are left alone, and shared defaults are never deleted.
    assert.equal(own(source, 'deal').length, 2);
  });

  it('reports a bad file with line and column, exit 2, before any request', async () => {
    const path = file(
      'bad.yaml',
      'version: 1\nobject_types:\n  contact:\n    lead_source:\n      name: Lead source\n      type: selectstr\n      requird: true\n      options:\n        - value: Web\n  deals:\n    Bad Slug:\n      name: x\n      type: str\n',
    );
    const r = await ws(['props', 'diff', '-f', path]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr.split('\n').slice(0, 5).join('\n'),
      [
        `error: ${path} is not a valid schema file:`,
        `  ${path}:6:13: object_types.contact.lead_source.type: "selectstr" is not a property type (did you mean "select_str"?)`,
        `  ${path}:7:7: object_types.contact.lead_source: unknown field "requird" (did you mean "required"?); fields: name, type, required, icon, enabled, list_id, role_id, options`,
        `  ${path}:9:11: object_types.contact.lead_source.options[0]: slug is missing`,
        `  ${path}:11:5: object_types.deals.Bad Slug: "Bad Slug" is not a slug: use lower-case letters, digits and underscores`,
      ].join('\n'),
    );
    const syntax = await ws([
      'props',
      'apply',
      '-f',
      file('syntax.yaml', 'version: 1\nobject_types: {contact: [\n'),
    ]);
    assert.equal(syntax.code, 2);
    assert.match(syntax.stderr, /syntax\.yaml:3:1: /);
    const missing = await ws(['props', 'apply', '-f', join(dir, 'nope.yaml')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /No file .*nope\.yaml\./);
    const unknownType = await ws([
      'props',
      'diff',
      '-f',
      file('type.yaml', 'version: 1\nobject_types:\n  widgets: {}\n'),
    ]);
    assert.equal(unknownType.code, 2);
    assert.match(
      unknownType.stderr,
      /type\.yaml:3:3: the workspace has no object type "widgets" for properties\./,
    );
  });

  it('refuses what the API cannot change (type, shared defaults) with exit 6, changing nothing', async () => {
    await furnish();
    const path = file(
      'conflict.yaml',
      'version: 1\nobject_types:\n  contact:\n    status:\n      name: State\n      type: select_str\n    linkedin_url:\n      name: LinkedIn\n      type: text\n    extra:\n      name: Extra\n      type: str\n',
    );
    const diff = await ws(['props', 'diff', '-f', path]);
    assert.equal(diff.code, 6);
    assert.match(diff.stdout, /^! contact\.status: it is a shared default definition/m);
    assert.match(
      diff.stdout,
      /^! contact\.linkedin_url: its type cannot change \(str in the workspace, text in the file\)/m,
    );
    assert.match(diff.stdout, /^\+ contact\.extra \(str "Extra"\)$/m);
    assert.match(
      diff.stdout,
      /Plan: 1 to create, 0 to update, 0 unchanged, 2 cannot be applied\.\n$/,
    );
    assert.match(
      diff.stderr,
      /2 changes in .*conflict\.yaml cannot be applied:\n {2}.*conflict\.yaml:4:5: contact\.status: /,
    );
    const apply = await ws(['props', 'apply', '-f', path]);
    assert.equal(apply.code, 6);
    assert.equal(apply.stdout, '');
    assert.ok(!own(source).some((d) => d.slug === 'extra'));
  });

  it('stops at the first API error and says what was done before it', async () => {
    const path = file(
      'stop.yaml',
      'version: 1\nobject_types:\n  contact:\n    aaa_first:\n      name: First\n      type: str\n    email_again:\n      name: Email\n      type: str\n    zzz_last:\n      name: Last\n      type: str\n',
    );
    const r = await ws(['props', 'apply', '-f', path]);
    assert.equal(r.code, 6);
    assert.equal(r.stdout, '+ contact.aaa_first (name "First", type "str", required false)\n');
    assert.match(
      r.stderr,
      /error: Stopped at "create contact\.email_again": A contact property named 'Email' already exists/,
    );
    assert.match(
      r.stderr,
      /1 change was made before it \(listed on stdout\); nothing after it was attempted\./,
    );
    assert.deepEqual(
      own(source).map((d) => d.slug),
      ['aaa_first'],
    );
    const json = await ws(['props', 'apply', '-f', path, '--json']);
    assert.equal(json.code, 6);
    assert.deepEqual(JSON.parse(json.stdout), []);
    assert.equal(JSON.parse(json.stderr).error.status, 409);
  });

  it('exports chosen object types as JSON, to a file', async () => {
    await furnish();
    const out = join(dir, 'deal.json');
    const r = await ok(['props', 'export', 'deal', '--output', out]);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /✓ Exported 2 properties of 1 object type to .*deal\.json\./);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(Object.keys(doc.object_types), ['deal']);
    assert.deepEqual(Object.keys(doc.object_types.deal), ['loss_reason', 'pipeline_step']);
    const viaFlag = await ok(['props', 'export', 'deals', '--json']);
    assert.deepEqual(JSON.parse(viaFlag.stdout), doc);
    const empty = await ok(['props', 'export', 'identity', '--json']);
    assert.deepEqual(JSON.parse(empty.stdout), { version: 1, object_types: { identity: {} } });
    const tsv = await ws(['props', 'export', '--format', 'tsv']);
    assert.equal(tsv.code, 2);
    assert.match(tsv.stderr, /writes YAML, or JSON with --format json/);
  });
});
