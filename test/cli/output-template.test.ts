// --template TEXT|@FILE: Liquid rendered once per row of a list (once for an object), with
// the helpers tables need: tablerow/tablerender, timeago, truncate, color, join, hyperlink.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import { templateShaper, timeAgo } from '../../src/output/template.ts';
import { testIO } from '../helpers/io.ts';
import { runWs } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let s: TestSandbox;
let work: string;

interface Deal {
  id: string;
  properties: { name: string; stage: string; amount: number };
}

async function ws(args: string[], env: Record<string, string | undefined> = {}) {
  const r = await runWs(args, { env: { ...s.env, ...env }, cwd: work });
  return r;
}

/** A shaper over captured output, for what the command line cannot show (a clock, a width). */
async function rendered(
  template: string,
  items: unknown[],
  opts: { tty?: boolean; columns?: number; now?: Date } = {},
): Promise<{ text: string; note: string }> {
  const t = testIO({
    tty: opts.tty ?? false,
    columns: opts.columns ?? null,
    env: opts.tty ? {} : { NO_COLOR: '1' },
  });
  let out = '';
  const shaper = await templateShaper(template, {
    io: t.io,
    cwd: work,
    now: () => opts.now ?? new Date('2026-03-01T12:00:00Z'),
    put: async (text) => {
      out += text;
    },
  });
  await shaper.items(items);
  await shaper.endItems();
  await shaper.end();
  return { text: out, note: t.stderr() };
}

async function render(template: string, items: unknown[], opts: { tty?: boolean } = {}) {
  return (await rendered(template, items, opts)).text;
}

describe('--template', () => {
  before(async () => {
    s = await startTestSandbox({ seed: 'demo' });
    work = mkdtempSync(join(tmpdir(), 'ws-template-'));
  });
  after(async () => {
    await s?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('renders once per row of a list, a line each', async () => {
    const deals = JSON.parse(
      (await ws(['records', 'list', 'deals', '--limit', '5', '--json'])).stdout,
    ) as Deal[];
    const r = await ws([
      'records',
      'list',
      'deals',
      '--limit',
      '5',
      '--template',
      '{{ properties.name }}: {{ properties.stage | upcase }}',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      deals.map((d) => `${d.properties.name}: ${d.properties.stage.toUpperCase()}\n`).join(''),
    );
  });

  it('renders an object once, and takes the template from @FILE with its partials beside it', async () => {
    writeFileSync(join(work, 'status.liquid'), 'team {{ team_id }}{% include "tail" %}\n');
    writeFileSync(join(work, 'tail.liquid'), ' at {{ base_url }}');
    const status = JSON.parse((await ws(['auth', 'status', '--json'])).stdout);
    const r = await ws(['auth', 'status', '--template', '@status.liquid']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `team ${status.team_id} at ${status.base_url}\n`);
    const missing = await ws(['auth', 'status', '--template', '@nope.liquid']);
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      /Cannot read the template file nope\.liquid: there is no such file\./,
    );
  });

  it('aligns the rows given with tablerow, rendered at the end or at tablerender', async () => {
    const deals = JSON.parse(
      (await ws(['records', 'list', 'deals', '--limit', '4', '--json'])).stdout,
    ) as Deal[];
    const r = await ws([
      'records',
      'list',
      'deals',
      '--limit',
      '4',
      '--template',
      '{% tablerow properties.name, properties.stage, properties.amount %}',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const width = (k: 'name' | 'stage') => Math.max(...deals.map((d) => d.properties[k].length));
    assert.equal(
      r.stdout,
      deals
        .map(
          (d) =>
            `${d.properties.name.padEnd(width('name'))}  ${d.properties.stage.padEnd(width('stage'))}  ${d.properties.amount}`,
        )
        .join('\n') + '\n',
    );
    assert.equal(
      await render('{% tablerow name, n %}{% if n == 2 %}{% tablerender %}--{% endif %}', [
        { name: 'a', n: 1 },
        { name: 'bbb', n: 2 },
        { name: 'c', n: 3 },
      ]),
      'a    1\nbbb  2\n--\nc  3\n',
    );
  });

  it('fits a tablerow table to the terminal, and keeps a cell with a filter of arguments in parentheses', async () => {
    const rows = [
      {
        name: 'Northwind deal',
        url: 'https://example.com/a/very/long/path',
        about: 'Platform license for the whole team, renewed yearly',
        n: 1,
      },
      { name: 'Cedar', url: 'https://example.com/b', about: 'Onboarding', n: 22 },
    ];
    const template = '{% tablerow name, (url | truncate: 30), about, n %}';
    const wide = await rendered(template, rows);
    const about = rows[0]!.about.length;
    assert.equal(
      wide.text,
      `Northwind deal  https://example.com/a/very/lo…  ${rows[0]!.about}  1\n` +
        `Cedar           https://example.com/b           ${'Onboarding'.padEnd(about)}  22\n`,
    );
    const at40 = await rendered(template, rows, { tty: true, columns: 40 });
    const lines = at40.text.trimEnd().split('\n');
    assert.equal(lines.length, 2, at40.text);
    for (const line of lines) assert.ok(line.length <= 40, line);
    assert.match(lines[0]!, /^Northwind deal {2}https:\/\/\S*… {2}Platform\S* *… {2}1$/);
    assert.equal(at40.note, '');
    const at20 = await rendered(template, rows, { tty: true, columns: 20 });
    for (const line of at20.text.trimEnd().split('\n')) assert.ok(line.length <= 20, line);
    // The note is broken between words at the terminal's width.
    const note = stripVTControlCharacters(at20.note).trimEnd().split('\n');
    for (const line of note) assert.ok(line.length <= 20, line);
    assert.match(
      note.join(' '),
      /^Left out to fit the terminal's width: tablerow columns 2, 3, 4 \(shorten cells with truncate, or use --wide\)\.$/,
    );
    const r = await ws([
      'webhooks',
      'list',
      '--template',
      '{% tablerow name, url | truncate: 20, created_at %}',
    ]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /gives truncate 2 arguments: write a cell whose filter takes arguments in parentheses/,
    );
  });

  it('has timeago, truncate, color, join and hyperlink', async () => {
    const now = new Date('2026-03-01T12:00:00Z');
    assert.equal(timeAgo('2026-03-01T11:57:00Z', now), '3 minutes ago');
    assert.equal(timeAgo('2026-02-27T12:00:00Z', now), '2 days ago');
    assert.equal(timeAgo('2026-03-01T11:59:50Z', now), 'just now');
    assert.equal(timeAgo('2026-03-04T12:00:00Z', now), 'in 3 days');
    assert.equal(timeAgo('not a time', now), 'not a time');
    const row = {
      name: 'Ada Lovelace',
      tags: ['vip', 'partner'],
      url: 'https://example.com/ada',
      at: '2025-03-01T12:00:00Z',
    };
    assert.equal(
      await render(
        '{{ name | truncate: 8 }}|{{ tags | join: ", " }}|{{ at | timeago }}|{{ url | hyperlink: name }}',
        [row],
      ),
      'Ada Lov…|vip, partner|1 year ago|Ada Lovelace (https://example.com/ada)\n',
    );
    // At a terminal, a link a terminal opens (OSC 8) and colour.
    assert.equal(
      await render('{{ url | hyperlink: name }} {{ name | color: "bold green" }}', [row], {
        tty: true,
      }),
      '\x1b]8;;https://example.com/ada\x07Ada Lovelace\x1b]8;;\x07 \x1b[1m\x1b[32mAda Lovelace\x1b[39m\x1b[22m\n',
    );
    // Piped, no colour unless FORCE_COLOR asks for it.
    const plain = await ws(['auth', 'status', '--template', '{{ team_id | color: "red" }}']);
    assert.doesNotMatch(plain.stdout, /\x1b/);
    const forced = await ws(['auth', 'status', '--template', '{{ team_id | color: "red" }}'], {
      FORCE_COLOR: '1',
    });
    assert.match(forced.stdout, /^\x1b\[31m[0-9a-f-]{36}\x1b\[39m\n$/);
  });

  it('renders an item that is not an object as {{ value }}', async () => {
    assert.equal(await render('<{{ value }}>', [1, 'two']), '<1>\n<two>\n');
  });

  it('makes a template that does not parse or render a usage error', async () => {
    const bad = await ws(['auth', 'status', '--template', '{% if %}']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: The --template is not a valid Liquid template: /);
    const filter = await ws(['auth', 'status', '--template', '{{ team_id | colour: "red" }}']);
    assert.equal(filter.code, 2);
    assert.match(filter.stderr, /undefined filter: colour/);
    const style = await ws(['auth', 'status', '--template', '{{ team_id | color: "rouge" }}']);
    assert.equal(style.code, 2);
    assert.match(
      style.stderr,
      /^error: The --template failed on the output: color takes one argument, styles of /,
    );
  });
});
