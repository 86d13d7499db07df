// Keys named like JavaScript's built-ins (`constructor`, `toString`, ...) are data: a
// property slug, an option slug, a column name or a profile name that happens to be one is
// looked up among own properties only, never found on Object.prototype. Table-driven: each
// name goes through every place ws or the sandbox looks a user's name up.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runWs, tempConfigDir } from '../helpers/run.ts';
import { useRecordsSandbox } from './records-fixture.ts';

const ctx = useRecordsSandbox();
const KEYS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
/** The names that are valid property slugs (lower case letters, digits and _). */
const SLUG = /^[a-z0-9][a-z0-9_]{0,63}$/;

function clean(r: { code: number; stderr: string }): void {
  assert.doesNotMatch(r.stderr, /Unexpected error|Cannot read properties/);
  assert.ok(r.code !== 1, r.stderr);
}

describe('keys named like JavaScript built-ins', () => {
  for (const key of KEYS.filter((k) => SLUG.test(k))) {
    it(`property slug and option slug "${key}": create, every format, filters, sort, select, export, props export/apply`, async () => {
      const s = ctx.s;
      const ok = async (argv: string[]) => {
        const r = await s.ws(argv);
        assert.equal(r.code, 0, `ws ${argv.join(' ')}: ${r.stderr}`);
        return r.stdout;
      };
      await ok([
        'props',
        'create',
        'contact',
        '--name',
        'Built-in',
        '--slug',
        key,
        '--type',
        'str',
      ]);
      await ok(
        [
          'props',
          'create',
          'contact',
          '--name',
          'Kind',
          '--slug',
          'kind',
          '--type',
          'select_str',
        ].concat(['--option', key, '--option', 'other']),
      );
      const [ada] = s.load('contact', [{ name: 'Ada', [key]: 'yes', kind: key }]);
      const [bob] = s.load('contact', [{ name: 'Bob' }]);
      await ok(['records', 'create', 'contacts', '--set', 'name=Cy', '--set', `${key}=made`]);
      const select = ['--select', `name,${key},kind`, '--sort', 'name'];
      assert.equal(
        await ok(['records', 'list', 'contacts', ...select]),
        `${ada}\tAda\tyes\t${key}\n${bob}\tBob\t\t\n`.concat(
          (
            await ok(['records', 'list', 'contacts', '--where', 'name=Cy', '--fields', 'id'])
          ).trim(),
          '\tCy\tmade\t\n',
        ),
      );
      const csv = await ok(['records', 'list', 'contacts', ...select, '--format', 'csv']);
      assert.match(
        csv,
        new RegExp(`^id,name,${key},kind\\r\\n${ada},Ada,yes,${key}\\r\\n${bob},Bob,,\\r\\n`),
      );
      const json = JSON.parse(await ok(['records', 'list', 'contacts', ...select, '--json']));
      assert.deepEqual(json[1].properties, { name: 'Bob', [key]: null, kind: null });
      const nd = (await ok(['records', 'list', 'contacts', ...select, '--format', 'ndjson']))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(nd[0].properties[key], 'yes');
      assert.ok(
        Object.hasOwn(nd[1].properties, key),
        'select keeps the key of a record without it',
      );
      const table = await s.ws(['records', 'list', 'contacts', ...select], { tty: true });
      assert.equal(table.code, 0, table.stderr);
      assert.match(table.stdout, new RegExp(`Ada +yes +${key}`));
      // The default piped listing: every defined property.
      await ok(['records', 'list', 'contacts']);
      assert.equal(await ok(['records', 'count', 'contacts', '--where', `${key}:is_null`]), '1\n');
      assert.equal(
        await ok(['records', 'count', 'contacts', '--where', `${key}:is_not_null`]),
        '2\n',
      );
      assert.equal(await ok(['records', 'count', 'contacts', '--where', `kind=${key}`]), '1\n');
      assert.equal(await ok(['records', 'count', 'contacts', '--where', `${key}=yes`]), '1\n');
      const sorted = await ok([
        'records',
        'list',
        'contacts',
        '--sort',
        `-${key}`,
        '--select',
        key,
      ]);
      assert.deepEqual(
        sorted
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => l.split('\t')[1]),
        ['yes', 'made', ''],
      );
      const exported = await ok([
        'records',
        'export',
        'contacts',
        '--select',
        `name,${key}`,
        '--sort',
        'name',
      ]);
      assert.match(exported, new RegExp(`^id,name,${key}\\r\\n${ada},Ada,yes\\r\\n`));
      const schema = join(ctx.dir, `schema-${key}.json`);
      await ok(['props', 'export', 'contact', '--format', 'json', '--output', schema]);
      assert.equal(
        JSON.parse(readFileSync(schema, 'utf8')).object_types.contact[key].name,
        'Built-in',
      );
      const plan = await s.ws(['props', 'apply', '-f', schema, '--dry-run']);
      assert.equal(plan.code, 0, plan.stderr);
      assert.doesNotMatch(
        plan.stdout + plan.stderr,
        new RegExp(`(create|delete)[^\\n]*\\b${key}\\b`, 'i'),
      );
    });
  }

  for (const key of KEYS.filter((k) => !SLUG.test(k))) {
    it(`"${key}", not a slug, is an unknown property everywhere (exit 2), never a built-in`, async () => {
      const s = ctx.s;
      s.load('contact', [{ name: 'Ada' }]);
      for (const argv of [
        ['records', 'list', 'contacts', '--select', `name,${key}`],
        ['records', 'list', 'contacts', '--where', `${key}=1`],
        ['records', 'list', 'contacts', '--sort', key],
        ['records', 'list', 'contacts', '--fields', key],
        ['records', 'create', 'contacts', '--set', `${key}=1`],
        ['records', 'export', 'contacts', '--select', key],
      ]) {
        const r = await s.ws(argv);
        clean(r);
        assert.equal(r.code, 2, `ws ${argv.join(' ')}: ${r.stderr}`);
      }
      // Straight to the sandbox: a filter, a select and a body naming it.
      const api = await s.ws(['api', 'POST', '/v2/prism/{teamId}/contact/query', '--input', '-'], {
        stdin: JSON.stringify({
          query: { select: ['name', key], filter: [{ [key]: { is_null: true } }] },
        }),
      });
      assert.equal(api.code, 2, api.stderr);
    });
  }

  it('CSV columns named like built-ins import into the properties they map to', async () => {
    const s = ctx.s;
    const file = join(ctx.dir, 'builtins.csv');
    writeFileSync(file, `${KEYS.join(',')},name\r\nc,t,v,h,d,Ada\r\n`);
    const r = await s.ws([
      'import',
      'contacts',
      file,
      ...KEYS.flatMap((k) => ['--map', `${k}=notes`]).slice(0, 2),
      '--map',
      'toString=-',
      '--map',
      'valueOf=-',
      '--map',
      'hasOwnProperty=-',
      '--map',
      '__defineGetter__=-',
    ]);
    clean(r);
    assert.equal(r.code, 0, r.stderr);
    const listed = await s.ws(['records', 'list', 'contacts', '--select', 'name,notes']);
    assert.match(listed.stdout, /\tAda\tc\n$/);
  });

  it('profile names: looked up among the profiles, never found on Object.prototype', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const env = {
        WS_CONFIG_DIR: dir,
        WS_PROFILE: '',
        WS_API_KEY: '',
        WS_TEAM_ID: '',
        WS_BASE_URL: '',
      };
      const team = '8f1e6a52-3c1d-4b7e-9a5f-2d4c6b8e0f11';
      for (const key of KEYS) {
        const missing = await runWs(['profile', 'show', key], { env });
        clean(missing);
        assert.notEqual(missing.code, 0);
        const use = await runWs(['auth', 'status', '--profile', key], { env });
        clean(use);
        const added = await runWs(
          [
            'profile',
            'add',
            key,
            '--base-url',
            'http://127.0.0.1:9',
            '--team-id',
            team,
            '--with-key',
            '--no-verify',
          ],
          { env, stdin: 'key_0123456789abcdef\n' },
        );
        clean(added);
        if (key.startsWith('_')) {
          assert.equal(added.code, 2, added.stderr);
          continue;
        }
        assert.equal(added.code, 0, added.stderr);
        const shown = await runWs(['profile', 'show', key, '--json'], { env });
        assert.equal(shown.code, 0, shown.stderr);
        assert.equal(JSON.parse(shown.stdout).name, key);
      }
      const list = await runWs(['profile', 'list', '--format', 'tsv', '--fields', 'name'], { env });
      assert.deepEqual(
        list.stdout.trim().split('\n').sort(),
        KEYS.filter((k) => !k.startsWith('_')).sort(),
      );
      for (const key of KEYS.filter((k) => !k.startsWith('_'))) {
        const removed = await runWs(['profile', 'remove', key, '--yes'], { env });
        assert.equal(removed.code, 0, removed.stderr);
      }
    } finally {
      cleanup();
    }
  });
});
