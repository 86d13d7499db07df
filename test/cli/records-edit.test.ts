import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();

const PATCH = /^PATCH \/v2\/prism\/[^/]+\/contact\/[0-9a-f-]+ /;

/**
 * An $EDITOR: a node script that gets the file, keeps a copy of what it was shown in
 * `seen.yaml`, and runs `body` (JS with `text`, to change) before writing it back.
 */
function editor(name: string, body: string): string {
  const script = join(ctx.dir, `${name}.mjs`);
  writeFileSync(
    script,
    `import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
let text = readFileSync(file, 'utf8');
writeFileSync(${JSON.stringify(join(ctx.dir, 'seen.yaml'))}, text);
${body}
writeFileSync(file, text);
`,
  );
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
}

const seen = () => readFileSync(join(ctx.dir, 'seen.yaml'), 'utf8');
const keptFile = (stderr: string) => /--from (\S+)/.exec(stderr)?.[1];

describe('ws records edit', () => {
  it("opens $EDITOR on the record's values as YAML and sends only what changed, with If-Match", async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada', score: 1, tags: ['vip'] }]);
    const EDITOR = editor(
      'change',
      `text = text.replace(/^name: .*$/m, 'name: Ada Lovelace').replace(/^status: .*$/m, 'status: Customer');`,
    );
    const r = await ctx.s.ws(['records', 'edit', 'contact', a!, '--json'], { env: { EDITOR } });
    assert.equal(r.code, 0, r.stderr);
    const shown = seen();
    assert.match(shown, new RegExp(`^# ws records edit contact ${a}\\n`));
    assert.match(shown, /\nname: Ada\n/);
    assert.match(shown, /\nscore: 1\n/);
    assert.match(shown, /\ntags: \[ vip \]\n/);
    assert.match(
      shown,
      /\n# status: one of lead \("Lead"\), customer \("Customer"\), churned \("Churned"\)\nstatus: null\n/,
    );
    assert.deepEqual(ctx.s.get('contact', a!)!.default, {
      name: 'Ada Lovelace',
      score: 1,
      tags: ['vip'],
      status: 'customer',
    });
    assert.equal(JSON.parse(r.stdout).etag, '"v2"');
    assert.match(r.stderr, /Updated contact .*: name, status\./);
    assert.equal(ctx.s.count(PATCH), 1);
    assert.equal(existsSync(join(tmpdir(), `ws-edit-contact-${a}.yaml`)), false);
  });

  it('sends nothing when nothing changed; an empty file cancels (exit 1)', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada' }]);
    const same = await ctx.s.ws(['records', 'edit', 'contact', a!], {
      env: { EDITOR: editor('same', '') },
    });
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stderr, /No changes to contact .*; nothing was sent\./);
    const empty = await ctx.s.ws(['records', 'edit', 'contact', a!], {
      env: { EDITOR: editor('empty', `text = '# nothing\\n';`) },
    });
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /Cancelled: the file was empty; nothing was sent\./);
    assert.equal(ctx.s.count(PATCH), 0);
  });

  it('a value that does not fit, or YAML that does not parse, is exit 2 and keeps the text', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada' }]);
    const bad = await ctx.s.ws(['records', 'edit', 'contact', a!], {
      env: { EDITOR: editor('bad', `text = text.replace(/^score: .*$/m, 'score: lots');`) },
    });
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /Nothing was sent; the edited values have a problem:\n {2}score takes a number, not "lots"\./,
    );
    const kept = keptFile(bad.stderr)!;
    assert.match(readFileSync(kept, 'utf8'), /\nscore: lots\n/);
    const yaml = await ctx.s.ws(['records', 'edit', 'contact', a!, '--from', kept], {
      env: { EDITOR: editor('broken', `text = 'name: [unclosed\\n';`) },
    });
    assert.equal(yaml.code, 2);
    assert.match(yaml.stderr, /The edited text is not valid YAML/);
    assert.match(yaml.stderr, new RegExp(`Your text is kept in ${kept}`));
    const fixed = await ctx.s.ws(['records', 'edit', 'contact', a!, '--from', kept], {
      env: { EDITOR: editor('fix', `text = 'name: Ada\\nscore: 5\\n';`) },
    });
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.equal(ctx.s.get('contact', a!)!.default['score'], 5);
    assert.equal(existsSync(kept), false);
    assert.equal(ctx.s.count(PATCH), 1);
  });

  it('on 412 keeps the edits on top of the current values, lists what changed on the server, prints the retry', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada', city: 'London' }]);
    const url = `${ctx.s.t.sandbox.url}/v2/prism/${ctx.s.t.sandbox.teamId}/contact/${a}`;
    const EDITOR = editor(
      'race',
      `await fetch(${JSON.stringify(url)}, {
  method: 'PATCH',
  headers: { 'x-api-key': ${JSON.stringify(ctx.s.t.sandbox.apiKey)}, 'content-type': 'application/json' },
  body: JSON.stringify({ default: { name: 'Server name', city: 'Paris' } }),
});
text = text.replace(/^name: .*$/m, 'name: My name').replace(/^score: .*$/m, 'score: 7');`,
    );
    const r = await ctx.s.ws(['records', 'edit', 'contact', a!], { env: { EDITOR } });
    assert.equal(r.code, 6);
    assert.match(
      r.stderr,
      new RegExp(
        `Changed on the server since you opened contact ${a}:\\n` +
          ' {2}name: Ada → Server name\\n {2}city: London → Paris\\n' +
          'Your changes:\\n {2}name: Ada → My name {2}\\(conflict\\)\\n {2}score: \\(empty\\) → 7\\n',
      ),
    );
    assert.match(r.stderr, /your changes were not sent/);
    const kept = keptFile(r.stderr)!;
    assert.match(
      r.stderr,
      new RegExp(`Review them and send with: ws records edit contact ${a} --from ${kept}`),
    );
    const text = readFileSync(kept, 'utf8');
    assert.match(text, /\ncity: Paris\n/);
    assert.match(text, /\nname: My name\n/);
    assert.match(text, /\nscore: 7\n/);
    assert.deepEqual(ctx.s.get('contact', a!)!.default, { name: 'Server name', city: 'Paris' });

    const retry = await ctx.s.ws(['records', 'edit', 'contact', a!, '--from', kept], {
      env: { EDITOR: editor('accept', '') },
    });
    assert.equal(retry.code, 0, retry.stderr);
    assert.match(retry.stderr, /Updated contact .*: name, score\./);
    assert.deepEqual(ctx.s.get('contact', a!)!.default, {
      name: 'My name',
      city: 'Paris',
      score: 7,
    });
    assert.equal(existsSync(kept), false);
  });

  it('without $VISUAL/$EDITOR and without a terminal is exit 2; a failing editor exit 1', async () => {
    const [a] = ctx.s.load('contact', [{ name: 'Ada' }]);
    const none = await ctx.s.ws(['records', 'edit', 'contact', a!]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /No editor: set \$VISUAL or \$EDITOR/);
    const fails = await ctx.s.ws(['records', 'edit', 'contact', a!], {
      env: { VISUAL: `${JSON.stringify(process.execPath)} -e "process.exit(3)"` },
    });
    assert.equal(fails.code, 1);
    assert.match(fails.stderr, /exited with 3; nothing was sent/);
    const kept = /Your text is in (\S+)\./.exec(fails.stderr)?.[1];
    assert.ok(kept && existsSync(kept));
    rmSync(kept!);
    const missing = await ctx.s.ws(
      ['records', 'edit', 'contact', '00000000-0000-4000-8000-000000000000'],
      {
        env: { EDITOR: editor('never', '') },
      },
    );
    assert.equal(missing.code, 4);
    assert.equal(ctx.s.count(PATCH), 0);
  });
});
