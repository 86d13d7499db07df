// The schema file model, the plan and the placing of options, without a server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PropertyDefinition, PropertyOption } from '../../src/api/props.ts';
import { UsageError } from '../../src/errors.ts';
import { formatSchema, parseSchema, schemaObject } from '../../src/schema/file.ts';
import {
  changesOf,
  hasChanges,
  makePlan,
  placeOptions,
  problems,
  summary,
} from '../../src/schema/plan.ts';

const TEAM = '11111111-1111-4111-8111-111111111111';
const LIST = '22222222-2222-4222-8222-222222222222';
let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

function opt(
  slug: string,
  value: string,
  sort: number | null,
  extra: Partial<PropertyOption> = {},
): PropertyOption {
  return {
    id: id(),
    slug,
    value,
    color_scheme: null,
    description: null,
    icon: null,
    option_group: null,
    sort_index: sort,
    list_id: null,
    crm_id: null,
    ...extra,
  };
}

function def(slug: string, extra: Partial<PropertyDefinition> = {}): PropertyDefinition {
  return {
    id: id(),
    slug,
    name: slug,
    type: 'str',
    alias: null,
    icon: null,
    enabled: true,
    required: false,
    locked: false,
    native: false,
    role_id: null,
    team_id: TEAM,
    list_id: null,
    crm_id: null,
    ...extra,
  };
}

async function problemsOf(text: string): Promise<string> {
  try {
    await parseSchema(text, 's.yaml');
  } catch (err) {
    assert.ok(err instanceof UsageError);
    return err.message;
  }
  throw new Error('expected a usage error');
}

describe('parseSchema', () => {
  it('reads definitions keyed by slug with their defaults, object types singular or plural', async () => {
    const s = await parseSchema(
      'version: 1\nobject_types:\n  contacts:\n    stage:\n      name: Stage\n      type: select_str\n      options:\n        - slug: a\n          value: 2024\n  deal:\n',
      's.yaml',
    );
    assert.equal(s.objectTypes.length, 2);
    assert.deepEqual(s.objectTypes[1], { type: 'deal', properties: [], at: 's.yaml:10:3' });
    const [stage] = s.objectTypes[0]!.properties;
    assert.deepEqual(stage, {
      slug: 'stage',
      name: 'Stage',
      type: 'select_str',
      required: false,
      icon: null,
      enabled: true,
      list_id: null,
      at: 's.yaml:4:5',
      options: [
        {
          slug: 'a',
          value: '2024',
          color_scheme: null,
          description: null,
          icon: null,
          option_group: null,
        },
      ],
    });
    assert.equal(s.objectTypes[0]!.type, 'contact');
  });

  it('lists every problem with its line and column', async () => {
    const message = await problemsOf(
      [
        'version: 2',
        'colour: x',
        'object_types:',
        '  contact:',
        '    stage:',
        '      type: str',
        '      required: "yes"',
        '      list_id: not-a-uuid',
        '      options: []',
        '    ok_one:',
        '      name: true',
        '      type: select_str',
        '      options:',
        '        - slug: a',
        '          value: A',
        '        - slug: a',
        '          value: B',
        '  contacts: {}',
      ].join('\n'),
    );
    assert.equal(
      message,
      [
        's.yaml is not a valid schema file:',
        '  s.yaml:1:10: version: must be 1, the only version ws knows',
        '  s.yaml:2:1: (top): unknown field "colour"; fields: version, object_types',
        '  s.yaml:6:7: object_types.contact.stage: name is missing',
        '  s.yaml:7:17: object_types.contact.stage.required: must be true or false',
        '  s.yaml:8:16: object_types.contact.stage.list_id: "not-a-uuid" is not an id (a UUID)',
        '  s.yaml:9:16: object_types.contact.stage.options: only select_str and multiselect_str properties have options, not str',
        '  s.yaml:11:13: object_types.contact.ok_one.name: must be text (put quotes around it)',
        '  s.yaml:16:11: object_types.contact.ok_one.options[1].slug: "a" appears twice',
        '  s.yaml:18:3: object_types.contacts: names the object type contact again (as "contact" before)',
      ].join('\n'),
    );
  });

  it('reports YAML syntax errors and duplicate keys with their place', async () => {
    assert.match(
      await problemsOf(
        'version: 1\nobject_types:\n  contact:\n    a: {name: x, type: str}\n    a: {name: y, type: str}\n',
      ),
      /s\.yaml:5:5: Map keys must be unique/,
    );
    assert.match(await problemsOf('version: 1\nobject_types: [\n'), /s\.yaml:3:1: /);
    assert.match(await problemsOf(''), /s\.yaml: \(top\): must be a mapping/);
  });
});

describe('schemaObject and formatSchema', () => {
  it('writes own definitions in a stable order without ids, defaults left out', async () => {
    const byType = new Map([
      [
        'deal',
        [
          def('zeta', {
            type: 'select_str',
            options: [opt('b', 'B', 1), opt('a', 'A', 0, { color_scheme: 'red' })],
          }),
          def('alpha', { required: true, enabled: false, icon: 'x', list_id: LIST, crm_id: LIST }),
        ],
      ],
      ['contact', [def('one', { role_id: '33333333-3333-4333-8333-333333333333' })]],
    ]);
    const obj = schemaObject(byType);
    assert.deepEqual(Object.keys(obj.object_types as object), ['contact', 'deal']);
    const yaml = await formatSchema(obj, 'yaml');
    assert.equal(
      yaml,
      [
        '# Property definitions for `ws props diff -f FILE` and `ws props apply -f FILE`.',
        '# Definitions are keyed by slug; options are listed in display order.',
        '',
        'version: 1',
        'object_types:',
        '  contact:',
        '    one:',
        '      name: one',
        '      type: str',
        '      required: false',
        '      role_id: 33333333-3333-4333-8333-333333333333',
        '  deal:',
        '    alpha:',
        '      name: alpha',
        '      type: str',
        '      required: true',
        '      icon: x',
        '      enabled: false',
        `      list_id: ${LIST}`,
        '    zeta:',
        '      name: zeta',
        '      type: select_str',
        '      required: false',
        '      options:',
        '        - slug: a',
        '          value: A',
        '          color_scheme: red',
        '        - slug: b',
        '          value: B',
        '',
      ].join('\n'),
    );
    const back = await parseSchema(yaml, 'x.yaml');
    assert.deepEqual(
      back.objectTypes.map((t) => [t.type, t.properties.map((p) => p.slug)]),
      [
        ['contact', ['one']],
        ['deal', ['alpha', 'zeta']],
      ],
    );
    assert.deepEqual(JSON.parse(await formatSchema(obj, 'json')), obj);
  });
});

describe('placeOptions', () => {
  const o = (slug: string, sort: number | null) => opt(slug, slug, sort);

  it('keeps the sort_index of options already in order and slots new ones between', () => {
    const current = [o('a', 0), o('b', 1), o('c', 2)];
    assert.deepEqual([...placeOptions(['a', 'b', 'c'], current)], []);
    assert.deepEqual([...placeOptions(['a', 'b', 'c', 'd'], current)], [['d', 3]]);
    assert.deepEqual([...placeOptions(['x', 'a', 'b', 'c'], current)], [['x', -1]]);
    assert.deepEqual(
      [...placeOptions(['a', 'x', 'y', 'b', 'c'], current)],
      [
        ['x', 0.5],
        ['y', 0.75],
      ],
    );
    assert.deepEqual([...placeOptions(['b', 'c'], current)], [], 'a left out changes nothing');
    assert.deepEqual(
      [...placeOptions(['p', 'q'], [])],
      [
        ['p', 0],
        ['q', 1],
      ],
    );
  });

  it('renumbers by position when the order differs or an option has no sort_index', () => {
    const current = [o('a', 0), o('b', 1), o('c', 2)];
    assert.deepEqual(
      [...placeOptions(['c', 'a', 'b'], current)],
      [
        ['c', 0],
        ['a', 1],
        ['b', 2],
      ],
    );
    assert.deepEqual([...placeOptions(['a', 'b'], [o('a', 0), o('b', null)])], [['b', 1]]);
  });
});

describe('makePlan', () => {
  const schemaOf = (yaml: string) => parseSchema(`version: 1\nobject_types:\n${yaml}`, 'f.yaml');

  it('matches by slug: unchanged, updates of fields and options, creates', async () => {
    const stage = def('stage', {
      name: 'Stage',
      type: 'select_str',
      options: [opt('won', 'Won', 0), opt('lost', 'Lost', 1)],
    });
    const workspace = new Map([['deal', [stage, def('note', { name: 'Note' })]]]);
    const schema = await schemaOf(
      '  deal:\n    note:\n      name: Note\n      type: str\n    stage:\n      name: Deal stage\n      type: select_str\n      options:\n        - {slug: won, value: Closed won}\n        - {slug: lost, value: Lost}\n        - {slug: open, value: Open}\n    size:\n      name: Size\n      type: num\n',
    );
    const plan = makePlan(schema, workspace, { prune: false });
    assert.ok(hasChanges(plan));
    assert.deepEqual(summary(plan), { create: 1, update: 1, delete: 0, unchanged: 1, problem: 0 });
    assert.deepEqual(changesOf(plan), [
      { action: 'unchanged', object_type: 'deal', property: 'note', option: null, changes: [] },
      {
        action: 'update',
        object_type: 'deal',
        property: 'stage',
        option: null,
        changes: [{ field: 'name', from: 'Stage', to: 'Deal stage' }],
      },
      {
        action: 'update',
        object_type: 'deal',
        property: 'stage',
        option: 'won',
        changes: [{ field: 'value', from: 'Won', to: 'Closed won' }],
      },
      {
        action: 'create',
        object_type: 'deal',
        property: 'stage',
        option: 'open',
        changes: [
          { field: 'value', from: null, to: 'Open' },
          { field: 'sort_index', from: null, to: 2 },
        ],
      },
      {
        action: 'create',
        object_type: 'deal',
        property: 'size',
        option: null,
        changes: [
          { field: 'name', from: null, to: 'Size' },
          { field: 'type', from: null, to: 'num' },
          { field: 'required', from: null, to: false },
        ],
      },
    ]);
  });

  it('deletes only with prune and only in the named object types; never shared defaults', async () => {
    const shared = def('email', { team_id: null, locked: true, native: true });
    const workspace = new Map([
      [
        'contact',
        [shared, def('old'), def('keep', { type: 'select_str', options: [opt('x', 'X', 0)] })],
      ],
      ['deal', [def('elsewhere')]],
    ]);
    const schema = await schemaOf(
      '  contact:\n    keep:\n      name: keep\n      type: select_str\n',
    );
    const kept = makePlan(schema, workspace, { prune: false });
    assert.deepEqual(kept.kept, ['contact.keep option x', 'contact.old']);
    assert.ok(!hasChanges(kept));
    const pruned = makePlan(schema, workspace, { prune: true });
    assert.deepEqual(
      changesOf(pruned).map((c) => [c.action, c.property, c.option]),
      [
        ['delete', 'keep', 'x'],
        ['delete', 'old', null],
      ],
    );
  });

  it('a shared default named in the file is unchanged when it matches, a problem when it differs', async () => {
    const shared = def('email', { name: 'Email', team_id: null, locked: true, native: true });
    const workspace = new Map([['contact', [shared]]]);
    const same = makePlan(
      await schemaOf('  contact:\n    email: {name: Email, type: str}\n'),
      workspace,
      { prune: true },
    );
    assert.deepEqual(problems(same), []);
    assert.ok(!hasChanges(same));
    const other = makePlan(
      await schemaOf('  contact:\n    email: {name: E-mail, type: str}\n'),
      workspace,
      { prune: false },
    );
    assert.match(
      problems(other)[0]!,
      /^f\.yaml:4:5: contact\.email: it is a shared default definition/,
    );
    const retype = makePlan(
      await schemaOf('  contact:\n    mine: {name: Mine, type: num}\n'),
      new Map([['contact', [def('mine', { name: 'Mine' })]]]),
      { prune: false },
    );
    assert.match(
      problems(retype)[0]!,
      /its type cannot change \(str in the workspace, num in the file\)/,
    );
  });

  it('an object type the workspace lacks is a usage error naming its line', async () => {
    assert.throws(
      () =>
        makePlan(
          { file: 'f.yaml', objectTypes: [{ type: 'widget', properties: [], at: 'f.yaml:3:3' }] },
          new Map([['contact', []]]),
          { prune: false },
        ),
      (err: unknown) =>
        err instanceof UsageError &&
        err.message === 'f.yaml:3:3: the workspace has no object type "widget" for properties.',
    );
  });
});
