// Generates the command reference from the commander tree: docs/reference/*.md and the man
// pages man/*.1 (scripts/reference.mjs renders them).
// and package.json's "man", which lists the man pages.
// Usage: node scripts/gen-docs.mjs           write the pages, remove pages of commands gone
//        node scripts/gen-docs.mjs --check   write nothing; exit 1 naming each stale page
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { renderReference } from './reference.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

/** Every page of the reference, from the tree as `ws` builds it with every command defined. */
export async function pages() {
  const { buildProgram } = await tsImport('../src/root.ts', import.meta.url);
  const { TOPICS } = await tsImport('../src/help-topics.ts', import.meta.url);
  const { VERSION } = await tsImport('../src/version.ts', import.meta.url);
  const { IOStreams } = await tsImport('../src/io/streams.ts', import.meta.url);
  const io = new IOStreams({
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    isStdoutTTY: false,
    isStderrTTY: false,
    isStdinTTY: false,
    env: {},
  });
  const ctx = {
    async invoke() {
      throw new Error('no command runs while the reference is generated');
    },
  };
  return renderReference(await buildProgram(ctx, io), TOPICS, VERSION);
}

/** The generated pages on disk now, by their path from the repository's root. */
function onDisk() {
  const found = [];
  for (const [dir, ext] of [
    ['docs/reference', '.md'],
    ['man', '.1'],
  ]) {
    if (!existsSync(join(root, dir))) continue;
    for (const name of readdirSync(join(root, dir)))
      if (name.endsWith(ext)) found.push(`${dir}/${name}`);
  }
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wanted = await pages();
  const stale = [];
  for (const [file, text] of Object.entries(wanted)) {
    const at = join(root, file);
    const now = existsSync(at) ? readFileSync(at, 'utf8') : undefined;
    if (now === text) continue;
    stale.push(file);
    if (!check) {
      mkdirSync(dirname(at), { recursive: true });
      writeFileSync(at, text);
    }
  }
  for (const file of onDisk()) {
    if (Object.hasOwn(wanted, file)) continue;
    stale.push(`${file} (no such command)`);
    if (!check) rmSync(join(root, file));
  }
  // package.json's "man" declares the man pages, so that npm installs them (man ws-records).
  const pkgFile = join(root, 'package.json');
  const pkgText = readFileSync(pkgFile, 'utf8');
  const pkg = JSON.parse(pkgText);
  pkg.man = Object.keys(wanted)
    .filter((f) => f.startsWith('man/'))
    .map((f) => `./${f}`);
  const pkgWanted = `${JSON.stringify(pkg, null, 2)}\n`;
  if (pkgWanted !== pkgText) {
    stale.push('package.json ("man": the man pages)');
    if (!check) writeFileSync(pkgFile, pkgWanted);
  }
  if (check && stale.length > 0) {
    console.error(
      `gen-docs: the command reference is out of date (run npm run gen):\n  ${stale.join('\n  ')}`,
    );
    process.exit(1);
  }
  if (!check) {
    console.log(
      stale.length > 0
        ? `gen-docs: wrote ${stale.length} of ${Object.keys(wanted).length} pages`
        : 'gen-docs: up to date',
    );
  }
}
