// --jq EXPR: what ws prints for an expression is what the jq program prints (`jq -r`, and
// `-c` when piped) for the same expression over the JSON ws prints with --json; over lists
// of several pages (--all), NDJSON rows, single objects and documents a command writes
// itself. Bad expressions are usage errors (exit 2) that quote jq, before any request.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jqShaper, runsPerItem } from '../../src/output/jq.ts';
import { testIO } from '../helpers/io.ts';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let s: TestSandbox;
let work: string;

/** What the jq program prints for `expression` over `input` (`jq -r`, `-c` unless pretty). */
function jq(expression: string, input: string, pretty = false): string {
  const r = spawnSync('jq', [pretty ? '-r' : '-rc', expression], { input, encoding: 'utf8' });
  if (r.error)
    throw new Error(`the jq program is needed to check --jq (apt-get install jq): ${r.error}`);
  assert.equal(r.status, 0, `jq ${expression}: ${r.stderr}`);
  return r.stdout;
}

async function ws(args: string[], opts: { tty?: boolean } = {}) {
  const r = await runWs(args, { env: s.env, ...(opts.tty ? { stdoutTTY: true } : {}) });
  assert.equal(r.code, 0, `ws ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Expressions over a list of records: ones that run page by page and ones that need it whole. */
const LIST_EXPRESSIONS = [
  '.[] | .properties.name',
  '.[] | {id, name: .properties.name}',
  '.[] | select(.properties.name | test("^[A-M]")) | .id',
  '.[] | "\\(.properties.name) <\\(.properties.email // "no e-mail")>"',
  '.[] | [.id, .properties.name] | @csv',
  '.[] | [.properties.name, .properties.title] | @tsv',
  '.[] | .properties | keys',
  'length',
  'map(.properties.name) | sort | .[0:3]',
  'sort_by(.properties.name) | reverse | .[0].id',
  'group_by(.properties.title) | map({title: .[0].properties.title, n: length}) | .[0:4]',
  '[.[] | .properties.name | length] | add / length',
  'first(.[] | .properties.name)',
  '.[0] | to_entries | map(.key) | join(",")',
];

describe('--jq', () => {
  before(async () => {
    s = await startTestSandbox({ seed: 'demo' });
    work = mkdtempSync(join(tmpdir(), 'ws-jq-'));
    // 125 more contacts: --all reads three pages of 50.
    const rows = ['name,email,title'];
    for (let i = 0; i < 125; i++)
      rows.push(`Person ${String(i).padStart(3, '0')},p${i}@example.com,${i % 3 ? 'CEO' : ''}`);
    writeFileSync(join(work, 'people.csv'), `${rows.join('\n')}\n`);
    const r = await runWs(['import', 'contacts', join(work, 'people.csv'), '--quiet'], {
      env: s.env,
    });
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => {
    await s?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('gives what jq gives over the JSON of a list read page by page (--all)', async () => {
    const json = await ws(['records', 'list', 'contacts', '--all', '--json']);
    assert.equal(JSON.parse(json).length, 150);
    for (const e of LIST_EXPRESSIONS) {
      const shaped = await ws(['records', 'list', 'contacts', '--all', '--jq', e]);
      assert.equal(shaped, jq(e, json), e);
    }
  });

  it('runs on each row with --format ndjson, as jq runs on NDJSON', async () => {
    const ndjson = await ws(['records', 'list', 'contacts', '--all', '--format', 'ndjson']);
    for (const e of [
      '.properties.name',
      '{id}',
      'select(.properties.title == "CEO") | .id',
      'keys',
    ]) {
      const shaped = await ws([
        'records',
        'list',
        'contacts',
        '--all',
        '--format',
        'ndjson',
        '--jq',
        e,
      ]);
      assert.equal(shaped, jq(e, ndjson), e);
    }
  });

  it('indents what is not a string on a terminal, as jq does', async () => {
    const json = await ws(['records', 'list', 'deals', '--json']);
    for (const e of [
      '.[0:2]',
      '.[] | .properties.name',
      '.[] | {name: .properties.name, amount: .properties.amount}',
    ]) {
      const shaped = await ws(['records', 'list', 'deals', '--jq', e], { tty: true });
      assert.equal(shaped, jq(e, json, true), e);
    }
  });

  it('works on single objects and on the documents commands write themselves', async () => {
    const cases: [string[], string][] = [
      [['auth', 'status'], '.team_id'],
      [['auth', 'status'], 'keys'],
      [['records', 'count', 'contacts'], '.total'],
      [['props', 'list', 'deals'], '.[] | select(.type == "select") | .slug'],
      [['webhooks', 'list'], 'length'],
      [['api', 'GET', '/v2/prism/{teamId}/deal/count'], '.'],
    ];
    for (const [args, e] of cases) {
      const json = await ws([...args, '--json']);
      assert.equal(await ws([...args, '--jq', e]), jq(e, json), `${args.join(' ')} --jq ${e}`);
    }
    const id = JSON.parse(await ws(['records', 'list', 'deals', '--limit', '1', '--json']))[0].id;
    const one = await ws(['records', 'get', 'deals', id, '--json']);
    for (const e of ['.default.stage', '.default | to_entries | length', '.id == "' + id + '"'])
      assert.equal(await ws(['records', 'get', 'deals', id, '--jq', e]), jq(e, one), e);
  });

  it('keeps the text of strings whole, spaces and line breaks included', async () => {
    const e = '"  \\(.[0].id)  ", "a\\nb", .[0].id';
    const json = await ws(['records', 'list', 'deals', '--limit', '1', '--json']);
    assert.equal(await ws(['records', 'list', 'deals', '--limit', '1', '--jq', e]), jq(e, json));
    assert.equal(
      await ws(['records', 'list', 'deals', '--limit', '1', '--jq', e], { tty: true }),
      jq(e, json, true),
    );
  });

  it('applies --fields before the expression', async () => {
    const json = await ws(['records', 'list', 'deals', '--fields', 'id,name', '--json']);
    const e = '.[] | keys | join(",")';
    assert.equal(
      await ws(['records', 'list', 'deals', '--fields', 'id,name', '--jq', e]),
      jq(e, json),
    );
  });

  it('refuses an expression that does not compile before sending anything, quoting jq', async () => {
    // A profile whose service is not there: a request would fail with a network error.
    const env = { ...s.env, WS_BASE_URL: 'http://127.0.0.1:9' };
    const r = await runWs(['records', 'list', 'deals', '--jq', '.[] | .name |'], { env });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: The --jq expression is not valid jq:\njq: error: syntax error/);
    assert.match(r.stderr, /jq: 1 compile error/);
    const fn = await runWs(['records', 'list', 'deals', '--jq', 'nosuchfunction(1)'], { env });
    assert.equal(fn.code, 2);
    assert.match(fn.stderr, /nosuchfunction\/1 is not defined/);
  });

  it('makes an expression that fails on the output a usage error quoting jq', async () => {
    const r = await runWs(['records', 'list', 'deals', '--jq', '.[] | .properties.amount | .x'], {
      env: s.env,
    });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /^error: The --jq expression failed on the output: jq: error \(at \/dev\/stdin:\d+\): Cannot index number with string \("x"\)/,
    );
  });

  it('works on JSON only: a table, CSV or text output is a usage error', async () => {
    const csv = await runWs(['records', 'list', 'deals', '--format', 'csv', '--jq', '.'], {
      env: s.env,
    });
    assert.equal(csv.code, 2);
    assert.match(csv.stderr, /--jq works on JSON output, not --format csv/);
    const both = await runWs(['records', 'list', 'deals', '--jq', '.', '--template', 'x'], {
      env: s.env,
    });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--jq and --template cannot be used together/);
    const text = await runWs(['completion', 'bash', '--jq', '.'], { env: s.env });
    assert.equal(text.code, 2);
    assert.match(text.stderr, /This command's output is not JSON/);
  });

  it('prints errors as JSON only when JSON was asked for', async () => {
    const env = { ...s.env };
    const plain = await runWs(['records', 'get', 'deals', crypto.randomUUID(), '--jq', '.'], {
      env,
    });
    assert.equal(plain.code, 4);
    assert.match(plain.stderr, /^error: /);
    const json = await runWs(
      ['records', 'get', 'deals', crypto.randomUUID(), '--json', '--jq', '.'],
      { env },
    );
    assert.equal(json.code, 4);
    assert.equal(JSON.parse(json.stderr).error.code, 'not_found');
  });
});

describe('--jq over a list, page by page', () => {
  it('runs an expression that starts with .[] on each page as it arrives', async () => {
    const t = testIO();
    const out: string[] = [];
    const pages = [[{ n: 1 }, { n: 2 }], [{ n: 3 }]];
    const shaper = await jqShaper('.[] | .n * 10', {
      io: t.io,
      format: 'json',
      put: async (text) => {
        out.push(text);
      },
    });
    await shaper.items(pages[0]!);
    assert.deepEqual(
      out.join(''),
      '10\n20\n',
      'the first page is printed before the second arrives',
    );
    await shaper.items(pages[1]!);
    await shaper.endItems();
    assert.equal(out.join(''), jq('.[] | .n * 10', JSON.stringify(pages.flat())));
  });

  it('holds the rows until the last page when the expression needs the whole list', async () => {
    const t = testIO();
    let out = '';
    const shaper = await jqShaper('map(.n) | add', {
      io: t.io,
      format: 'json',
      put: async (text) => {
        out += text;
      },
    });
    await shaper.items([{ n: 1 }, { n: 2 }]);
    assert.equal(out, '');
    await shaper.items([{ n: 3 }]);
    await shaper.endItems();
    assert.equal(out, '6\n');
  });

  it('tells the expressions that run per item', () => {
    for (const e of ['.[]', ' .[] | .name', '.[]|select(.a)|.b', '.[] | .a, .b', '.[] | .a |= 1'])
      assert.ok(runsPerItem(e), e);
    for (const e of [
      '.[] |= 1',
      'length',
      'map(.a)',
      '.[0]',
      '.[]?',
      '.[] as $x | $x',
      '.[] | halt',
      'first(.[])',
    ])
      assert.ok(!runsPerItem(e), e);
  });
});
