// The import corpus (test/fixtures/import-corpus/, written by its generate.mjs): files as
// Excel in several locales, Google Sheets, Numbers, HubSpot, Salesforce, LinkedIn,
// Mailchimp and Airtable write them. Each is imported with the flags a user who knows the
// file gives (its locale, what its percents mean), and every stored value is compared with
// what the file means. A row is stored correctly (every value as meant, nothing else),
// refused (it failed, with a reason), or stored silently wrong (a value other than the one
// meant, or a record no row means): there must be none of those, and at least 95% of the
// rows must be stored correctly.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type ObjectType, recordsOf } from '../../src/sandbox/index.ts';
import { useRecordsSandbox } from './records-fixture.ts';

const CORPUS = new URL('../fixtures/import-corpus/', import.meta.url).pathname;

interface Entry {
  file: string;
  written: string;
  type: ObjectType;
  flags: string[];
  setup?: Record<string, string[]>;
  rows: Record<string, unknown>[];
}

const ctx = useRecordsSandbox();
const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as Entry[];

describe('the import corpus', () => {
  it('stores every value as its file means it, or refuses the row; none silently wrong', async (t) => {
    const totals = { rows: 0, correct: 0, refused: 0, wrong: 0 };
    const wrong: string[] = [];
    for (const entry of manifest) {
      ctx.s.reset();
      // The records the file's look-ups name.
      const ids = new Map<string, string>();
      for (const [type, names] of Object.entries(entry.setup ?? {})) {
        const made = ctx.s.load(
          type as ObjectType,
          names.map((name) => ({ name })),
        );
        for (const [i, n] of names.entries()) ids.set(n, made[i]!);
      }
      const path = join(ctx.dir, entry.file);
      copyFileSync(join(CORPUS, entry.file), path);
      const results = join(ctx.dir, `${entry.file}.ndjson`);
      const r = await ctx.s.ws([
        'import',
        entry.type,
        path,
        ...entry.flags,
        '--results',
        results,
        '--json',
      ]);
      assert.ok(r.code === 0 || r.code === 5, `${entry.file}: exit ${r.code}: ${r.stderr}`);
      const stored = [...recordsOf(ctx.s.t.sandbox.store).records(entry.type)].map(
        (rec) => rec.default as Record<string, unknown>,
      );
      const failed = readFileSync(results, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((l) => l.status === 'failed');
      const meant = entry.rows.map((row) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(row)) {
          out[k] =
            v !== null && typeof v === 'object' && 'lookup' in v
              ? ids.get((v as { lookup: string }).lookup)
              : v;
        }
        return out;
      });
      const matched = new Set<Record<string, unknown>>();
      let refused = 0;
      for (const want of meant) {
        totals.rows++;
        const got = stored.find((s) => s['name'] === want['name']);
        if (!got) {
          totals.refused++;
          refused++;
          continue;
        }
        matched.add(got);
        try {
          assert.deepEqual(got, want);
          totals.correct++;
        } catch {
          totals.wrong++;
          wrong.push(
            `${entry.file}: ${JSON.stringify(got)} where the file means ${JSON.stringify(want)}`,
          );
        }
      }
      for (const s of stored) {
        if (matched.has(s)) continue;
        totals.wrong++;
        wrong.push(`${entry.file}: a record no row means: ${JSON.stringify(s)}`);
      }
      // Every row not stored failed, saying why (none was dropped without a word).
      assert.equal(failed.length, refused, `${entry.file}: ${JSON.stringify(failed)}`);
      for (const f of failed) assert.ok(f.errors.length > 0, `${entry.file}: line ${f.line}`);
    }
    t.diagnostic(
      `${manifest.length} files, ${totals.rows} rows: ${totals.correct} stored correctly, ${totals.refused} refused, ${totals.wrong} stored silently wrong`,
    );
    assert.deepEqual(wrong, []);
    assert.ok(totals.correct >= totals.rows * 0.95, JSON.stringify(totals));
  });
});
