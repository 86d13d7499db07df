// What a Tab offers, from the command tree and local data (the shells themselves are
// driven in test/e2e/completion.test.ts): words in, candidates out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PropertyDefinition } from '../../src/api/props.ts';
import type { CommandContext } from '../../src/command.ts';
import {
  type CompletionData,
  completeWords,
  formatCompletion,
  shellWords,
} from '../../src/complete.ts';
import { buildProgram } from '../../src/root.ts';
import { testIO } from '../helpers/io.ts';

const ctx: CommandContext = {
  async invoke() {
    throw new Error('no verb runs in these tests');
  },
};

const def = (slug: string, type: string, options: string[] = []): PropertyDefinition =>
  ({
    id: `00000000-0000-4000-8000-${slug.padStart(12, '0').slice(-12)}`,
    slug,
    name: slug.toUpperCase(),
    type,
    options: options.map((o, i) => ({ id: `o${i}`, slug: o, value: o.toUpperCase() })),
  }) as unknown as PropertyDefinition;

const DEALS = [
  def('amount', 'num'),
  def('name', 'str'),
  def('stage', 'select_str', ['won', 'lost']),
];

const data: CompletionData = {
  profiles: () => [{ value: 'prod', description: 'https://api.example.com' }, { value: 'sandbox' }],
  definitions: (type, listId) => (type === 'deal' && listId === undefined ? DEALS : []),
  viewNames: (type) => (type === 'deal' ? ['Big deals', 'Pipeline'] : []),
  lists: () => [{ value: '6f1c2a9e-1111-4222-8333-944455556666', description: 'Q3 (deal)' }],
  jobs: () => [{ value: 'imp_1' }, { value: 'imp_2' }],
};

/** The values offered for a line (`ws` left out); the last word is the one completed. */
async function offered(
  line: string[],
): Promise<{ values: string[]; files?: boolean; nospace?: boolean }> {
  const before = line.slice(0, -1);
  const program = await buildProgram(ctx, testIO().io, before);
  const c = completeWords(program, before, line.at(-1)!, data);
  return {
    values: c.candidates.map((x) => x.value),
    ...(c.files ? { files: true } : {}),
    ...(c.nospace ? { nospace: true } : {}),
  };
}

describe('completion: what each word may become', () => {
  it('commands, not help; the nouns at the top', async () => {
    assert.deepEqual((await offered([''])).values, [
      'profile',
      'auth',
      'whoami',
      'api',
      'props',
      'records',
      'import',
      'sandbox',
      'views',
      'lists',
      'automations',
      'webhooks',
      'deliveries',
      'completion',
      'alias',
      'version',
    ]);
    assert.deepEqual((await offered(['records', 'grant', ''])).values, ['get', 'set']);
  });

  it('flags after -, with the inherited ones; flag values by choices, files, profiles', async () => {
    const flags = (await offered(['records', 'get', 'deal', 'x', '--'])).values;
    assert.ok(
      flags.includes('--select') && flags.includes('--profile') && flags.includes('--help'),
    );
    assert.ok(!flags.includes('--version'));
    assert.deepEqual((await offered(['records', 'list', 'deal', '--format', ''])).values, [
      'table',
      'tsv',
      'json',
      'ndjson',
      'csv',
    ]);
    assert.deepEqual((await offered(['--format=n'])).values, ['--format=ndjson']);
    assert.deepEqual(await offered(['views', 'create', 'deal', '--type', '']), {
      values: ['grid', 'list', 'kanban'],
    });
    assert.deepEqual(await offered(['records', 'export', 'deal', '-o', '']), {
      values: [],
      files: true,
    });
    assert.deepEqual((await offered(['records', 'list', 'deal', '--profile', 'p'])).values, [
      'prod',
    ]);
    assert.ok(
      (await offered(['props', 'create', 'deal', '--type', 'multi'])).values.includes(
        'multiselect_str',
      ),
    );
  });

  it('property slugs for --fields, --select, --sort and --where, by the object type given', async () => {
    assert.deepEqual(await offered(['records', 'list', 'deals', '--fields', 'name,']), {
      values: ['name,id', 'name,amount', 'name,stage'],
      nospace: true,
    });
    assert.deepEqual((await offered(['records', 'list', 'deals', '--sort', 'name,-a'])).values, [
      'name,-amount',
    ]);
    assert.deepEqual(await offered(['records', 'list', 'deals', '--where', 's']), {
      values: ['stage'],
      nospace: true,
    });
    assert.deepEqual(await offered(['records', 'list', 'deals', '--where', 'stage:in=won,']), {
      values: ['stage:in=won,won', 'stage:in=won,lost'],
      nospace: true,
    });
    assert.deepEqual(
      (await offered(['records', 'list', 'deals', '--where', 'amount>1'])).values,
      [],
    );
    assert.deepEqual((await offered(['views', 'create', 'deal', '--group-by', ''])).values, [
      'amount',
      'name',
      'stage',
    ]);
    // An object type with nothing cached, or none given: only what every record has.
    assert.deepEqual((await offered(['records', 'list', 'contacts', '--fields', ''])).values, [
      'id',
    ]);
    assert.deepEqual((await offered(['records', 'list', 'widgets', '--select', ''])).values, [
      'id',
    ]);
  });

  it('arguments by their meaning: types, properties, options, views, profiles, shells, methods, jobs, files', async () => {
    assert.deepEqual((await offered(['views', 'list', ''])).values, [
      'action',
      'deal',
      'document',
      'event',
      'identity',
      'organization',
      'comment',
      'engagement',
    ]);
    assert.deepEqual((await offered(['records', 'grant', 'set', ''])).values, [
      'deal',
      'action',
      'document',
      'event',
      'engagement',
      'identity',
      'message',
    ]);
    // Every record verb offers event and engagement; import and the batches have no events.
    const records = ['contact', 'organization', 'identity', 'deal', 'action', 'document'];
    assert.deepEqual((await offered(['records', 'list', ''])).values, [
      ...records,
      'event',
      'engagement',
    ]);
    assert.deepEqual((await offered(['records', 'batch-delete', ''])).values, [
      ...records,
      'engagement',
    ]);
    assert.deepEqual((await offered(['import', ''])).values, [
      'validate',
      'status',
      'jobs',
      ...records,
      'engagement',
    ]);
    assert.deepEqual((await offered(['props', 'get', 'deals', ''])).values, [
      'amount',
      'name',
      'stage',
    ]);
    assert.deepEqual((await offered(['props', 'options', 'remove', 'deal', 'stage', ''])).values, [
      'won',
      'lost',
    ]);
    assert.deepEqual((await offered(['records', 'find', 'deal', 'st'])).values, ['stage']);
    assert.deepEqual((await offered(['views', 'show', 'deals', ''])).values, [
      'Big deals',
      'Pipeline',
    ]);
    assert.deepEqual((await offered(['profile', 'use', ''])).values, ['prod', 'sandbox']);
    // Lists by id (their names as descriptions), for `ws lists get` and every --list-id.
    const list = ['6f1c2a9e-1111-4222-8333-944455556666'];
    assert.deepEqual((await offered(['lists', 'get', ''])).values, list);
    assert.deepEqual((await offered(['records', 'list', 'deal', '--list-id', ''])).values, list);
    assert.deepEqual((await offered(['import', 'deal', 'f.csv', '--list-id', '6f'])).values, list);
    assert.deepEqual((await offered(['profile', 'add', ''])).values, []);
    assert.deepEqual((await offered(['completion', ''])).values, ['bash', 'zsh', 'fish']);
    assert.deepEqual((await offered(['api', 'P'])).values, ['POST', 'PUT', 'PATCH']);
    assert.deepEqual((await offered(['import', 'status', ''])).values, ['imp_1', 'imp_2']);
    assert.deepEqual(await offered(['import', 'contacts', '']), { values: [], files: true });
    const imp = (await offered(['import', ''])).values;
    assert.deepEqual(imp.slice(0, 3), ['validate', 'status', 'jobs']);
    assert.ok(imp.includes('contact'));
    // Nothing left to name: the flags; after --, nothing.
    assert.ok((await offered(['records', 'list', 'deals', ''])).values.includes('--where'));
    assert.deepEqual((await offered(['records', 'list', 'deals', '--', ''])).values, []);
  });
});

describe('completion: the shells', () => {
  it('splits a bash line as bash would, the last word being completed', () => {
    assert.deepEqual(shellWords('ws records list '), ['ws', 'records', 'list', '']);
    assert.deepEqual(shellWords(`ws views show deal "Big d`), [
      'ws',
      'views',
      'show',
      'deal',
      'Big d',
    ]);
    assert.deepEqual(shellWords(`ws a\\ b 'c d'e`), ['ws', 'a b', 'c de']);
  });

  it('answers each shell in its form: directives, then values', () => {
    const c = {
      candidates: [
        { value: '--format=json', description: 'a\nb' },
        { value: 'Big deals' },
        { value: 'a:b', description: 'colon' },
      ],
      nospace: true,
    };
    // bash replaces the part after its last word break (=, :) and takes values escaped.
    const breaks = ' \t\n"\'><=;|&(:';
    const fmt = { candidates: [{ value: '--format=json' }, { value: '--format=ndjson' }] };
    assert.equal(formatCompletion('bash', fmt, '--format=', breaks), ':\njson\nndjson\n');
    assert.equal(
      formatCompletion(
        'bash',
        { candidates: [{ value: 'Big deals' }, { value: "it's" }] },
        '',
        breaks,
      ),
      ":\nBig\\ deals\nit\\'s\n",
    );
    assert.equal(
      formatCompletion('zsh', c, ''),
      ':nospace\n--format=json:a b\nBig deals\na\\:b:colon\n',
    );
    assert.equal(
      formatCompletion('fish', { candidates: c.candidates, files: true }, ''),
      ':files\n--format=json\ta b\nBig deals\na:b\tcolon\n',
    );
  });
});
