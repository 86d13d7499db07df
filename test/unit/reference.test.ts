// The command reference (docs/reference/*.md, man/*.1) is the command tree's: the pages
// in the repository are what scripts/gen-docs.mjs renders from it now (a flag changed
// without `npm run gen` fails here, as in `npm run gen:check`), every command and flag is
// in its noun's pages, and every man page renders under groff without a warning.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { renderReference } from '../../scripts/reference.mjs';
import type { CommandContext } from '../../src/command.ts';
import { TOPICS } from '../../src/help-topics.ts';
import { buildProgram } from '../../src/root.ts';
import { VERSION } from '../../src/version.ts';
import { testIO } from '../helpers/io.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const ctx: CommandContext = {
  async invoke() {
    throw new Error('no verb runs in these tests');
  },
};

const tree = () => buildProgram(ctx, testIO().io);
const render = (root: Command): Record<string, string> =>
  renderReference(root, TOPICS, VERSION) as Record<string, string>;

/** Every command under `cmd` but help and hidden ones. */
function commands(cmd: Command): Command[] {
  return cmd.commands
    .filter((c) => c.name() !== 'help' && !(c as unknown as { _hidden?: boolean })._hidden)
    .flatMap((c) => [c, ...commands(c)]);
}

function path(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

describe('the command reference', () => {
  it('is up to date: the pages in docs/reference and man/ are what the tree renders', async () => {
    const pages = render(await tree());
    const stale = Object.entries(pages)
      .filter(([file, text]) => {
        const at = join(ROOT, file);
        return !existsSync(at) || readFileSync(at, 'utf8') !== text;
      })
      .map(([file]) => file);
    assert.deepEqual(stale, [], 'run npm run gen');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[] };
    assert.deepEqual(
      pkg.man,
      Object.keys(pages)
        .filter((f) => f.startsWith('man/'))
        .map((f) => `./${f}`),
    );
  });

  it('a flag added to a command changes its pages, and only them', async () => {
    const before = render(await tree());
    const root = await tree();
    const list = root.commands
      .find((c) => c.name() === 'records')!
      .commands.find((c) => c.name() === 'list')!;
    list.option('--brand-new <n>', 'a flag the pages do not have yet');
    const afterAdding = render(root);
    const changed = Object.keys(before).filter((f) => before[f] !== afterAdding[f]);
    assert.deepEqual(changed.sort(), ['docs/reference/records.md', 'man/ws-records.1']);
    assert.match(
      afterAdding['docs/reference/records.md']!,
      /`--brand-new <n>` \| a flag the pages/,
    );
    assert.match(afterAdding['man/ws-records.1']!, /^\.B \\-\\-brand\\-new <n>$/m);
  });

  it("holds every command with its usage and every flag, in its noun's pages", async () => {
    const root = await tree();
    const pages = render(root);
    const nouns = root.commands.filter((c) => c.name() !== 'help' && commands(root).includes(c));
    assert.ok(nouns.length >= 15, `${nouns.length} nouns`);
    let verbs = 0;
    for (const noun of nouns) {
      const md = pages[`docs/reference/${noun.name()}.md`]!;
      const man = pages[`man/ws-${noun.name()}.1`]!;
      assert.ok(md && man, noun.name());
      for (const cmd of [noun, ...commands(noun)]) {
        verbs++;
        const usage = `${path(cmd)} ${cmd.usage().replace('[options]', '[flags]')}`;
        assert.ok(md.includes(usage), `${usage} in ${noun.name()}.md`);
        assert.ok(man.includes(usage.replace(/-/g, '\\-')), `${usage} in ws-${noun.name()}.1`);
        for (const o of cmd.options.filter((x) => !x.hidden)) {
          assert.ok(md.includes(`\`${o.flags}\``), `${path(cmd)} ${o.flags}`);
          assert.ok(man.includes(`.B ${o.flags.replace(/-/g, '\\-')}`), `${path(cmd)} ${o.flags}`);
        }
      }
    }
    assert.ok(verbs > 80, `${verbs} commands`);
    // The root page: the global flags and the help topics.
    for (const o of root.options) assert.ok(pages['docs/reference/ws.md']!.includes(o.flags));
    for (const topic of Object.keys(TOPICS)) {
      assert.ok(pages['docs/reference/ws.md']!.includes(`### ws help ${topic}`));
    }
  });

  it('every man page renders with groff without a warning', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[] };
    for (const page of pkg.man) {
      const r = spawnSync('groff', ['-man', '-Tutf8', '-ww', join(ROOT, page)], {
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, `${page}: ${r.stderr}`);
      assert.equal(r.stderr, '', page);
      // Bold is overstruck on a terminal: N\bNA\bA….
      assert.match(r.stdout.replace(/.\x08/g, ''), /^NAME$/m, page);
    }
  });
});
