// ws sandbox clone against a second sandbox standing in for a real workspace: 5 object
// types with 40 properties of their own (select options, references), views, 3 automations
// with a webhook step at a receiver, and 20,000 records, served at the hosted rate limit
// (10 requests a second). The clone's schema equals the source's (`ws props diff` both
// ways), every reference in it resolves inside it, --scrub leaves none of the source's
// emails, phones or names and writes the same bytes twice, the requests spent are within 5%
// of the least the listing needs, a clone stopped by SIGINT continues when run again, and
// the clone's webhooks are disabled and never reach the source's receiver.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runWs } from '../helpers/run.ts';
import {
  sandboxCall,
  sandboxProfile,
  setFaults,
  startTestSandbox,
  type TestSandbox,
  writeProfiles,
} from '../helpers/sandbox.ts';
import { spawnWs, wsEnv } from '../helpers/spawned.ts';
import { startReceiver, type TestReceiver } from '../helpers/webhook-receiver.ts';

const PER_TYPE = 4000;
const TYPES = ['contact', 'organization', 'deal', 'action', 'document'] as const;

/** 8 properties of each of the 5 types: 40. */
const PROPERTIES: Record<
  (typeof TYPES)[number],
  [slug: string, type: string, options?: string[]][]
> = {
  contact: [
    ['tier', 'select_str', ['Gold', 'Silver', 'Bronze']],
    ['interests', 'multiselect_str', ['Hiking', 'Chess', 'Jazz']],
    ['employer', 'ref_organization'],
    ['memo', 'text'],
    ['backup_email', 'str'],
    ['mobile_phone', 'str'],
    ['rating', 'num'],
    ['vip', 'bool'],
  ],
  organization: [
    ['segment', 'select_str', ['Enterprise', 'Mid-market', 'SMB']],
    ['region', 'select_str', ['EMEA', 'AMER', 'APAC']],
    ['revenue', 'num'],
    ['incorporated', 'date'],
    ['site_url', 'str'],
    ['hq_phone', 'str'],
    ['labels', 'multi_str'],
    ['primary_contact', 'ref_contact'],
  ],
  deal: [
    ['risk', 'select_str', ['Low', 'Medium', 'High']],
    ['forecast', 'num'],
    ['stakeholders', 'multiref_contact'],
    ['competitor', 'str'],
    ['next_step', 'text'],
    ['signed', 'bool'],
    ['renewal_date', 'date'],
    ['champion_email', 'str'],
  ],
  action: [
    ['channel', 'select_str', ['Call', 'Email', 'Meeting']],
    ['outcome', 'select_str', ['Won', 'Lost', 'Pending']],
    ['effort', 'num'],
    ['attendees', 'multiref_contact'],
    ['summary', 'text'],
    ['followup', 'bool'],
    ['scheduled', 'date'],
    ['owner_phone', 'str'],
  ],
  document: [
    ['doc_class', 'select_str', ['Contract', 'Proposal', 'Memo']],
    ['confidential', 'bool'],
    ['pages', 'num'],
    ['authors', 'multiref_contact'],
    ['abstract', 'text'],
    ['version_label', 'str'],
    ['published', 'date'],
    ['reviewer_orgs', 'multiref_organization'],
  ],
};

const FIRST = ['Maria', 'Kenji', 'Olu', 'Priya', 'Sven', 'Lucia', 'Tomasz', 'Amara'];
const LAST = ['Hoffmann', 'Okonkwo', 'Ramirez', 'Lindqvist', 'Takahashi', 'Novak', 'Costa'];

let src: TestSandbox;
let receiver: TestReceiver;
let work: string;
let env: Record<string, string>;
/** Every email and phone number the source holds, and each contact's name by id. */
const personal = {
  emails: [] as string[],
  phones: [] as string[],
  names: new Map<string, string>(),
};

function people(i: number) {
  const name = `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]} ${['Jr', 'Sr', 'II', 'III'][i % 4]}${i}`;
  const email = `person${i}@corp${i % 97}.example`;
  const phone = `+1 (415) ${String(1000000 + i).slice(1, 4)}-${String(i).padStart(4, '0')}`;
  return { name, email, phone };
}

async function ok(call: Promise<{ status: number; body: unknown }>, status = [200, 201]) {
  const r = await call;
  assert.ok(status.includes(r.status), JSON.stringify(r.body));
  // biome-ignore lint/suspicious/noExplicitAny: answers are read freely
  return r.body as any;
}

/** The source's workspace: definitions, webhook, views, automations, 20,000 records. */
async function fillSource(s: TestSandbox): Promise<void> {
  const team = s.sandbox.teamId;
  const defs: Record<
    string,
    Record<string, { id: string; options?: { id: string; slug: string }[] }>
  > = {};
  for (const type of TYPES) {
    defs[type] = {};
    for (const [slug, ptype, options] of PROPERTIES[type]) {
      defs[type][slug] = await ok(
        sandboxCall(s, 'POST', `/v2/prism/${team}/${type}/properties`, {
          name: slug.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
          slug,
          type: ptype,
          ...(options
            ? { options: options.map((value) => ({ value, color_scheme: 'blue' })) }
            : {}),
        }),
      );
    }
  }
  const hook = await ok(
    sandboxCall(s, 'POST', `/v2/webhooks/${team}`, {
      name: 'CRM sync',
      url: `${receiver.url}/hooks/crm?token=abc`,
      description: 'Tells the CRM sync of changes',
    }),
  );
  await ok(
    sandboxCall(s, 'POST', `/v2/prism/${team}/organization/views`, {
      name: 'Enterprise accounts',
      view_type: 'grid',
      select: ['name', 'segment', 'revenue'],
      filter: [{ segment: { '=': 'enterprise' } }],
      sort: [{ revenue: 'desc' }],
    }),
  );
  await ok(
    sandboxCall(s, 'POST', `/v2/prism/${team}/deal/views`, {
      name: 'Risk board',
      view_type: 'kanban',
      group_by: 'risk',
      aggregation_type: 'sum',
      aggregation_prop_def_id: defs['deal']!['forecast']!.id,
      group_hidden_option_ids: [defs['deal']!['risk']!.options![0]!.id],
      select: ['name', 'forecast', 'risk'],
    }),
  );
  await ok(
    sandboxCall(s, 'POST', `/v2/prism/${team}/action/views`, {
      name: 'Calls',
      view_type: 'list',
      filter: [{ channel: { '=': 'call' } }],
    }),
  );
  await ok(
    sandboxCall(s, 'POST', `/v2/prism/${team}/contact/triggered_automations`, {
      kind: 'lifecycle',
      name: 'New contact to the CRM',
      on_create: true,
      state: { filter: [] },
      actions: [{ type: 'webhook', webhook_id: hook.id }],
    }),
  );
  await ok(
    sandboxCall(s, 'POST', `/v2/prism/${team}/deal/triggered_automations`, {
      kind: 'update',
      name: 'Risk raised',
      changeset: { filter: [{ risk: { to: { '=': 'high' } } }] },
      actions: [{ type: 'webhook', webhook_id: hook.id }],
    }),
  );
  await ok(
    sandboxCall(s, 'POST', `/v2/prism/${team}/organization/triggered_automations`, {
      kind: 'lifecycle',
      name: 'Organization removed',
      on_delete: true,
      state: { filter: [] },
      actions: [{ type: 'wait', delay_seconds: 60 }],
    }),
  );

  const ids = Object.fromEntries(
    TYPES.map((t) => [t, Array.from({ length: PER_TYPE }, () => randomUUID())]),
  ) as Record<(typeof TYPES)[number], string[]>;
  const pick = (list: string[], i: number, k: number) =>
    list[(i * 7919 + k * 104729) % list.length]!;
  const records: Record<string, unknown[]> = {
    contact: [],
    organization: [],
    deal: [],
    action: [],
    document: [],
  };
  for (let i = 0; i < PER_TYPE; i++) {
    const p = people(i);
    const backup = `alt.${i}@home${i % 31}.example`;
    const mobile = `+44 7700 ${String(900000 + i).padStart(6, '0')}`;
    personal.emails.push(p.email, backup);
    personal.phones.push(p.phone, mobile);
    personal.names.set(ids.contact[i]!, p.name);
    records['contact']!.push({
      id: ids.contact[i],
      default: {
        name: p.name,
        email: p.email,
        phone: p.phone,
        tier: ['gold', 'silver', 'bronze'][i % 3],
        interests: i % 2 === 0 ? ['hiking', 'jazz'] : ['chess'],
        employer: pick(ids.organization, i, 1),
        memo: `Met ${p.name} at the fair; write to ${p.email} or call ${p.phone}.`,
        backup_email: backup,
        mobile_phone: mobile,
        rating: i % 100,
        vip: i % 10 === 0,
      },
    });
    const hq = `+49 30 ${String(5550000 + i)}`;
    personal.phones.push(hq);
    records['organization']!.push({
      id: ids.organization[i],
      default: {
        name: `Org ${i}`,
        segment: ['enterprise', 'mid_market', 'smb'][i % 3],
        region: ['emea', 'amer', 'apac'][i % 3],
        revenue: i * 1000,
        incorporated: '2001-05-17',
        site_url: `https://org${i}.example`,
        hq_phone: hq,
        labels: ['partner'],
        primary_contact: pick(ids.contact, i, 2),
      },
    });
    records['deal']!.push({
      id: ids.deal[i],
      default: {
        name: `Deal ${i}`,
        risk: ['low', 'medium', 'high'][i % 3],
        forecast: i,
        stakeholders: [pick(ids.contact, i, 3), pick(ids.contact, i, 4)],
        competitor: 'Initech',
        next_step: `Send the quote to ${people(i + 1).email}`,
        signed: false,
        renewal_date: '2026-01-31',
        champion_email: people(i + 2).email,
      },
    });
    records['action']!.push({
      id: ids.action[i],
      default: {
        title: `Follow up ${i}`,
        channel: ['call', 'email', 'meeting'][i % 3],
        outcome: 'pending',
        effort: 2,
        attendees: [pick(ids.contact, i, 5)],
        summary: `Talked with ${people(i + 3).name}`,
        followup: true,
        scheduled: '2025-06-01',
        owner_phone: people(i + 4).phone,
      },
    });
    records['document']!.push({
      id: ids.document[i],
      default: {
        title: `Document ${i}`,
        doc_class: 'memo',
        confidential: i % 2 === 0,
        pages: 3,
        authors: [pick(ids.contact, i, 6)],
        abstract: 'Quarterly figures',
        version_label: `v${i}`,
        published: '2024-02-29',
        reviewer_orgs: [pick(ids.organization, i, 7)],
      },
    });
  }
  const seeded = await ok(sandboxCall(s, 'POST', '/__sandbox/seed', { records }));
  assert.equal(
    Object.values(seeded.created as Record<string, number>).reduce((a, b) => a + b),
    20_000,
  );
}

/** Every record of a sandbox, by type, through its API (the clone's sandbox is not limited). */
async function allRecords(s: { sandbox: TestSandbox['sandbox'] }, type: string) {
  // biome-ignore lint/suspicious/noExplicitAny: rows are read freely
  const rows: any[] = [];
  let cursor: string | null = null;
  do {
    const q: string = cursor ? `&cursor=${cursor}` : '';
    const page = await ok(
      sandboxCall(s, 'GET', `/v2/prism/${s.sandbox.teamId}/${type}?limit=50${q}`),
    );
    rows.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return rows;
}

/** `ws sandbox clone source --to FILE --json …`: the summary. */
async function clone(file: string, ...extra: string[]) {
  const r = await runWs(['sandbox', 'clone', 'source', '--to', file, '--json', ...extra], { env });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('ws sandbox clone', () => {
  let scrubbed: string;
  // biome-ignore lint/suspicious/noExplicitAny: the summary is read freely
  let summary: any;
  let started: number;
  let cloneSeconds: number;

  before(async () => {
    receiver = await startReceiver();
    src = await startTestSandbox();
    work = src.configDir;
    env = { WS_CONFIG_DIR: work };
    await fillSource(src);
    // The hosted limit, enforced by the source; ws paces itself by the profile's.
    await setFaults(src.sandbox, { rate_limit: 10 });
    writeProfiles(work, { source: { ...sandboxProfile(src), rate_limit: 10 } }, 'source');
    scrubbed = join(work, 'clone.json');
    started = receiver.requests.length;
    const t0 = Date.now();
    summary = await clone(scrubbed, '--scrub');
    cloneSeconds = (Date.now() - t0) / 1000;
  });
  after(async () => {
    await src?.stop();
    await receiver?.close();
  });

  test('spends within 5% of the fewest requests the listing needs, and says what it copied', (t) => {
    // 1 for the definitions, 1 for the webhooks, a page per view type (8) and automation
    // type (9), pages of 50 of each record type's sample (200: 4 pages for each of the 5
    // filled types, 1 for each of the 3 empty ones), and 50 ids a query for the records
    // the sample refers to.
    const referenced = summary.copied.referenced as Record<string, number>;
    const least =
      2 + 8 + 9 + 5 * 4 + 3 + Object.values(referenced).reduce((n, k) => n + Math.ceil(k / 50), 0);
    assert.equal(summary.requests.least, least);
    assert.ok(
      summary.requests.spent <= Math.ceil(least * 1.05),
      `${summary.requests.spent} requests, least ${least}`,
    );
    assert.equal(summary.copied.definitions, 40);
    assert.equal(summary.copied.options, 8 * 3);
    assert.equal(summary.copied.views, 3);
    assert.equal(summary.copied.automations, 3);
    assert.equal(summary.copied.webhooks, 1);
    for (const type of TYPES) {
      assert.equal(summary.copied.records[type], 200 + (referenced[type] ?? 0), type);
    }
    assert.ok((referenced['contact'] ?? 0) > 0, 'deals, actions and documents refer to contacts');
    assert.ok(statSync(scrubbed).mode % 0o1000 === 0o600, 'the snapshot is 0600');
    assert.equal(existsSync(`${scrubbed}.checkpoint`), false, 'the checkpoint is removed');
    // Everything of this workspace is cloned but the references of the records fetched
    // because the sample refers to them, to records outside the clone: cleared, and said so.
    const cleared = 'the record referred to is in neither the sample nor its references (cleared)';
    assert.deepEqual(
      summary.left_out.map((l: { why: string }) => l.why),
      summary.left_out.map(() => cleared),
    );
    const refs = Object.values(referenced).reduce((n, k) => n + k, 0);
    for (const l of summary.left_out) assert.ok(l.count > 0 && l.count <= refs, JSON.stringify(l));
    t.diagnostic(`clone: ${summary.requests.spent} requests (least ${least}) in ${cloneSeconds} s`);
  });

  test('the clone has the schema of the source, and every reference in it resolves inside it', async () => {
    const dup = await startTestSandbox({ snapshot: scrubbed });
    try {
      writeProfiles(
        work,
        {
          source: { ...sandboxProfile(src), rate_limit: 10 },
          clone: sandboxProfile(dup),
        },
        'source',
      );
      const exported = await runWs(
        ['props', 'export', '--profile', 'source', '-o', join(work, 'schema.yaml')],
        { env },
      );
      assert.equal(exported.code, 0, exported.stderr);
      const diff = await runWs(
        ['props', 'diff', '-f', join(work, 'schema.yaml'), '--prune', '--profile', 'clone'],
        { env },
      );
      assert.equal(diff.code, 0, diff.stdout + diff.stderr);
      const back = await runWs(
        ['props', 'export', '--profile', 'clone', '-o', join(work, 'clone.yaml')],
        { env },
      );
      assert.equal(back.code, 0, back.stderr);
      assert.equal(
        readFileSync(join(work, 'clone.yaml'), 'utf8'),
        readFileSync(join(work, 'schema.yaml'), 'utf8'),
      );

      const held = new Map<string, Set<string>>();
      const rows = new Map<string, { id: string; properties: Record<string, unknown> }[]>();
      for (const type of TYPES) {
        rows.set(type, await allRecords({ sandbox: dup.sandbox }, type));
        held.set(type, new Set(rows.get(type)!.map((r) => r.id)));
      }
      const refs: [string, string, string][] = [
        ['contact', 'employer', 'organization'],
        ['organization', 'primary_contact', 'contact'],
        ['deal', 'stakeholders', 'contact'],
        ['deal', 'organization', 'organization'],
        ['action', 'attendees', 'contact'],
        ['document', 'authors', 'contact'],
        ['document', 'reviewer_orgs', 'organization'],
      ];
      let checked = 0;
      for (const [type, slug, target] of refs) {
        for (const row of rows.get(type)!) {
          const v = row.properties[slug];
          for (const ref of Array.isArray(v) ? v : v ? [v] : []) {
            assert.ok(
              held.get(target)!.has((ref as { id: string }).id),
              `${type}.${slug} → ${target}`,
            );
            checked++;
          }
        }
      }
      assert.ok(checked > 1000, `${checked} references checked`);
      // Values other than personal data are those of the source.
      const first = rows.get('organization')![0]!;
      const orig = await ok(
        sandboxCall(src, 'GET', `/v2/prism/${src.sandbox.teamId}/organization/${first.id}`),
      );
      assert.equal(first.properties['revenue'], orig.default.revenue);
      assert.equal(first.properties['segment'], orig.default.segment);
    } finally {
      await dup.stop();
    }
  });

  test("--scrub leaves none of the source's emails, phone numbers or names, and writes the same bytes twice", async () => {
    const text = readFileSync(scrubbed, 'utf8');
    // Every email and every run of phone-number characters in the file, the latter by digits.
    const emails = new Set(text.match(/[\w.+-]+@[\w.-]+/g));
    const phones = new Set((text.match(/\+?[\d ()-]{7,}/g) ?? []).map((p) => p.replace(/\D/g, '')));
    for (const email of personal.emails) assert.ok(!emails.has(email), email);
    for (const phone of personal.phones) assert.ok(!phones.has(phone.replace(/\D/g, '')), phone);
    // The names of the people in the clone, wherever they were (names, notes, summaries).
    const contacts = JSON.parse(text).teams[0].slices.records.contact as { id: string }[];
    assert.ok(contacts.length >= 200);
    for (const { id } of contacts) {
      const name = personal.names.get(id);
      assert.ok(name !== undefined);
      assert.ok(!text.includes(name), name);
    }
    assert.ok(
      summary.scrub_counts.email > 0 &&
        summary.scrub_counts.phone > 0 &&
        summary.scrub_counts.name > 0,
    );
    const again = join(work, 'again.json');
    await clone(again, '--scrub');
    assert.equal(readFileSync(again, 'utf8'), text);
  });

  test('webhooks are disabled and never reach the receiver; automations are disabled', async () => {
    assert.equal(receiver.requests.length, started, 'cloning sent nothing to the receiver');
    const dup = await startTestSandbox({ snapshot: scrubbed });
    try {
      const hooks = (await ok(sandboxCall(dup, 'GET', `/v2/webhooks/${dup.sandbox.teamId}`))).data;
      assert.equal(hooks.length, 1);
      assert.equal(hooks[0].enabled, false);
      assert.match(hooks[0].url, /^https:\/\/clone\.invalid\//);
      assert.ok(hooks[0].description.includes(`${receiver.url}/hooks/crm?token=abc`));
      const autos = (
        await ok(
          sandboxCall(dup, 'GET', `/v2/prism/${dup.sandbox.teamId}/contact/triggered_automations`),
        )
      ).data;
      assert.equal(autos.length, 1);
      assert.equal(autos[0].enabled, false);
      assert.equal(autos[0].actions[0].webhook_id, hooks[0].id);
      // Enabled in the clone, the automation runs; its webhook, disabled, is not delivered to.
      await ok(
        sandboxCall(
          dup,
          'PUT',
          `/v2/prism/${dup.sandbox.teamId}/contact/triggered_automations/${autos[0].id}`,
          {
            kind: 'lifecycle',
            name: autos[0].name,
            on_create: true,
            state: { filter: [] },
            actions: autos[0].actions,
            enabled: true,
          },
        ),
      );
      await ok(
        sandboxCall(dup, 'POST', `/v2/prism/${dup.sandbox.teamId}/contact`, {
          default: { name: 'New' },
        }),
      );
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(receiver.requests.length, started, 'the clone sent nothing to the receiver');
    } finally {
      await dup.stop();
    }
  });

  test('a clone stopped by SIGINT continues where it stopped when run again', async () => {
    const file = join(work, 'resumed.json');
    const spawned = spawnWs(['sandbox', 'clone', 'source', '--to', file, '--scrub'], wsEnv(work));
    await spawned.waitForStderr(/Reading \w+ records: \d+ of at most 200/);
    spawned.child.kill('SIGINT');
    assert.equal(await spawned.exited, 130, spawned.stderr());
    assert.match(spawned.stderr(), /Run the same command again to continue where it stopped/);
    assert.ok(existsSync(`${file}.checkpoint`));
    assert.equal(existsSync(file), false);
    const checkpoint = JSON.parse(readFileSync(`${file}.checkpoint`, 'utf8'));
    assert.ok(checkpoint.requests > 0 && checkpoint.requests < summary.requests.least);
    // The interrupted run's requests leave the source's window (one sliding second at 10 a
    // second) before the command is run again, as they have when a person runs it again; a
    // run started within that second meets answers 429, and its retries count as requests.
    await new Promise((r) => setTimeout(r, 1100));
    const resumed = await clone(file, '--scrub');
    assert.equal(resumed.resumed, true);
    // The runs together spent what one run does, give or take the request the first left unanswered.
    assert.ok(
      resumed.requests.spent <= summary.requests.least + 2,
      JSON.stringify(resumed.requests),
    );
    assert.equal(readFileSync(file, 'utf8'), readFileSync(scrubbed, 'utf8'));
    assert.equal(existsSync(`${file}.checkpoint`), false);
  });
});
