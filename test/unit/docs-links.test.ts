// The manual's links hold: every relative link in README.md, docs/ and src/sandbox/README.md
// names a file that exists and, with a #fragment, a heading of that file (as GitHub makes
// its anchors). A chapter moved or a heading renamed without its links fails here.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { anchor } from '../../scripts/reference.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return markdownFiles(p);
    return name.endsWith('.md') ? [p] : [];
  });
}

const FILES = [
  join(ROOT, 'README.md'),
  join(ROOT, 'src', 'sandbox', 'README.md'),
  ...markdownFiles(join(ROOT, 'docs')),
];

/** The text of a Markdown file outside fenced code blocks, one entry a line (its number kept). */
function prose(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  for (const [i, line] of text.split('\n').entries()) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) out.push({ line: i + 1, text: line });
  }
  return out;
}

/** The anchors of a file's headings, numbered as GitHub numbers repeats (`-1`, `-2`). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of prose(readFileSync(file, 'utf8'))) {
    const m = /^#{1,6} (.*)$/.exec(text);
    if (!m) continue;
    const base = anchor(m[1]!.replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every link (`[text](target)`, `![alt](target)`) outside code, with its line. */
function links(file: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  for (const { line, text } of prose(readFileSync(file, 'utf8'))) {
    const bare = text.replace(/`[^`]*`/g, '');
    for (const m of bare.matchAll(/\]\(([^)\s]+)\)/g)) out.push({ line, target: m[1]! });
  }
  return out;
}

describe("the manual's links", () => {
  it('finds the files and links to check', () => {
    assert.ok(FILES.length > 20, `${FILES.length} files`);
    assert.ok(links(join(ROOT, 'README.md')).length > 20);
  });

  it('every relative link names a file that exists, and a heading of it for #fragments', () => {
    const broken: string[] = [];
    for (const file of FILES) {
      for (const { line, target } of links(file)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [path, fragment] = target.split('#') as [string, string | undefined];
        const to = path === '' ? file : join(dirname(file), decodeURIComponent(path));
        const where = `${relative(ROOT, file)}:${line}: ${target}`;
        if (!existsSync(to)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (fragment !== undefined && !anchors(to).has(fragment)) {
          broken.push(`${where} (no such heading in ${relative(ROOT, to)})`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it('a link to a heading that does not exist is found', () => {
    const readme = join(ROOT, 'README.md');
    assert.ok(anchors(readme).has('quick-start'));
    assert.ok(!anchors(readme).has('no-such-heading'));
    assert.ok(anchors(join(ROOT, 'docs', 'filters.md')).has('filters---where'));
  });
});
