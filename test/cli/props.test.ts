// ws props list/get/create/update/delete and options against the sandbox, with TTY on and
// off, and the definitions cache (requests counted in the sandbox's request log).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { propertiesOf } from '../../src/sandbox/resources/properties/model.ts';
import { recordsOf } from '../../src/sandbox/resources/records/model.ts';
import { runWs, scriptedPrompter } from '../helpers/run.ts';
import { startTestSandbox, type TestSandbox, writeProfiles } from '../helpers/sandbox.ts';

let t: TestSandbox;
let env: Record<string, string>;
let ttyEnv: Record<string, string>;
/** One line per request the sandbox answered. */
const requests: string[] = [];

before(async () => {
  t = await startTestSandbox({ log: (line) => requests.push(line) });
  env = t.env as Record<string, string>;
  ttyEnv = { ...env, NO_COLOR: '1' };
});
after(() => t.stop());

const model = () => propertiesOf(t.sandbox.store);
const own = (type: string) =>
  model()
    .all(t.sandbox.teamId, type)
    .filter((d) => d.team_id !== null);
const cacheDir = () => join(t.configDir, 'cache');
/** The definitions cache files (the cache directory also keeps the default roles, roles-*). */
const definitionFiles = () => readdirSync(cacheDir()).filter((f) => f.startsWith('definitions-'));

beforeEach(() => {
  model().reset();
  rmSync(cacheDir(), { recursive: true, force: true });
});

/** Run ws and return its result with the requests it made (method and path). */
async function ws(argv: string[], opts: Parameters<typeof runWs>[1] = {}) {
  const before = requests.length;
  const r = await runWs(argv, { env, ...opts });
  const made = requests.slice(before).map((l) => l.split(' ').slice(0, 2).join(' '));
  return { ...r, requests: made };
}

async function create(...args: string[]): Promise<Record<string, unknown>> {
  const r = await ws(['props', 'create', 'contact', ...args, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const CONTACT_DEFAULTS = [
  'birthday',
  'city',
  'company',
  'email',
  'name',
  'notes',
  'organization',
  'phone',
  'score',
  'status',
  'subscribed',
  'tags',
  'title',
];

describe('ws props list', () => {
  it('lists one object type as tsv when piped, singular or plural alike', async () => {
    const r = await ws(['props', 'list', 'contacts']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((l) => l.split('\t')[0]),
      CONTACT_DEFAULTS,
    );
    assert.equal(
      lines.find((l) => l.startsWith('status\t')),
      'status\tStatus\tselect_str\tfalse\tdefault\t3',
    );
    assert.equal(
      lines.find((l) => l.startsWith('email\t')),
      'email\tEmail\tstr\tfalse\tdefault\t',
    );
    const singular = await ws(['props', 'list', 'contact']);
    assert.equal(singular.stdout, r.stdout);
  });

  it('prints a table on a terminal, option values with --options, and every type without TYPE', async () => {
    await create('--name', 'Lead source', '--type', 'select_str', '--option', 'Web', '--required');
    const table = await ws(['props', 'list', 'contact', '--options'], { env: ttyEnv, tty: true });
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.split('\n');
    assert.match(lines[0]!, /^SLUG +NAME +TYPE +REQUIRED +SCOPE +OPTIONS$/);
    assert.match(
      table.stdout,
      /\nlead_source +Lead source +select_str +yes +workspace +Web \(web\)\n/,
    );
    assert.match(
      table.stdout,
      /\nstatus +Status +select_str +default +Lead \(lead\), Customer \(customer\), Churned \(churned\)\n/,
    );
    const all = await ws(['props', 'list', '--fields', 'object_type,slug,scope']);
    assert.equal(all.code, 0, all.stderr);
    assert.ok(all.stdout.includes('deal\tstage\tdefault\n'));
    assert.ok(all.stdout.includes('contact\tlead_source\tworkspace\n'));
    assert.ok(all.stdout.includes('ai_chat_thread\t'));
    assert.equal(all.requests.length, 1, 'one request for every object type');
  });

  it('prints the API objects with their object type as JSON, and filters with --term', async () => {
    const created = await create('--name', 'Lead source', '--type', 'str');
    const r = await ws(['props', 'list', 'contact', '--term', 'lead', '--json', '--debug']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [created]);
    assert.equal((created as { object_type: string }).object_type, 'contact');
    assert.equal(r.requests.length, 1);
    assert.match(r.stderr, /→ GET \S+\/contact\/properties\?include_options=true&term=lead /);
    const none = await ws(['props', 'list', 'contact', '--term', 'zzz'], {
      env: ttyEnv,
      tty: true,
    });
    assert.equal(none.code, 0);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /No contact properties match "zzz"\./);
  });

  it('rejects an unknown object type with exit 2, listing the known ones', async () => {
    for (const type of ['widgets', 'Contact person']) {
      const r = await ws(['props', 'list', type]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /Unknown object type "(widgets|Contact person)" for properties/);
      assert.match(r.stderr, /contact, organization, identity, deal, action, document, event/);
    }
  });
});

describe('ws props get', () => {
  it('finds a property by slug or by id, with its options', async () => {
    const created = await create(
      '--name',
      'Lead source',
      '--type',
      'select_str',
      '--option',
      'Web',
    );
    const bySlug = await ws(['props', 'get', 'contacts', 'lead_source', '--json']);
    const byId = await ws(['props', 'get', 'contact', created.id as string, '--json']);
    assert.equal(bySlug.code, 0, bySlug.stderr);
    assert.deepEqual(JSON.parse(bySlug.stdout), created);
    assert.equal(byId.stdout, bySlug.stdout);
    const table = await ws(['props', 'get', 'contact', 'lead_source'], { env: ttyEnv, tty: true });
    assert.match(table.stdout, /^id +[0-9a-f-]{36}\nslug +lead_source\nname +Lead source\n/);
    assert.match(table.stdout, /\nrequired +no\nscope +workspace\noption_values +Web \(web\)\n/);
  });

  it('exits 4 for a property that does not exist, suggesting close slugs', async () => {
    const r = await ws(['props', 'get', 'contact', 'stauts']);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /No contact property "stauts"\. Did you mean "status"\?/);
    const json = await ws(['props', 'get', 'contact', 'nothing_like_it', '--json']);
    assert.equal(json.code, 4);
    assert.equal(JSON.parse(json.stderr).error.code, 'not_found');
  });
});

describe('ws props create', () => {
  it('creates from flags: options in order, required, and prints the definition', async () => {
    const r = await ws([
      'props',
      'create',
      'contacts',
      '--name',
      'Lead source',
      '--type',
      'select_str',
      '--option',
      'Web',
      '--option',
      'Trade show',
      '--required',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const def = JSON.parse(r.stdout);
    assert.equal(def.slug, 'lead_source');
    assert.equal(def.required, true);
    assert.deepEqual(
      def.options.map((o: { slug: string; value: string }) => [o.slug, o.value]),
      [
        ['web', 'Web'],
        ['trade_show', 'Trade show'],
      ],
    );
    assert.match(r.stderr, /✓ Created contact property "Lead source" \(lead_source\)\./);
    const stored = own('contact');
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.id, def.id);
    assert.deepEqual(r.requests, [
      `GET /v2/prism/${t.sandbox.teamId}/contact/properties`,
      `POST /v2/prism/${t.sandbox.teamId}/contact/properties`,
    ]);
  });

  it('asks for a missing name and type on a terminal', async () => {
    const prompter = scriptedPrompter({
      'Name of the new deal property': 'Loss reason',
      Type: 'text',
    });
    const r = await ws(['props', 'create', 'deals'], { env: ttyEnv, tty: true, prompter });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(prompter.asked, ['Name of the new deal property', 'Type']);
    const def = own('deal').find((d) => d.slug === 'loss_reason');
    assert.equal(def?.type, 'text');
    assert.match(r.stdout, /\nname +Loss reason\ntype +text\n/);
  });

  it('without a terminal, a missing name or type is a usage error naming the flag', async () => {
    const noName = await ws(['props', 'create', 'contact', '--type', 'str']);
    assert.equal(noName.code, 2);
    assert.match(noName.stderr, /--name is required/);
    const noType = await ws(['props', 'create', 'contact', '--name', 'X']);
    assert.equal(noType.code, 2);
    assert.match(noType.stderr, /--type is required/);
    const yes = await ws(['props', 'create', 'contact', '--name', 'X', '--yes'], {
      env: ttyEnv,
      tty: true,
    });
    assert.equal(yes.code, 2, 'no prompt with --yes');
    assert.match(yes.stderr, /--type is required/);
    assert.deepEqual(own('contact'), []);
    assert.deepEqual(noName.requests, []);
  });

  it('refuses a bad type (with a suggestion) and options on a type without options', async () => {
    const bad = await ws(['props', 'create', 'contact', '--name', 'X', '--type', 'strng']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--type: "strng" is not a property type\. Did you mean "str"/);
    const opts = await ws([
      'props',
      'create',
      'contact',
      '--name',
      'X',
      '--type',
      'num',
      '--option',
      'a',
    ]);
    assert.equal(opts.code, 2);
    assert.match(opts.stderr, /--option applies only to select_str and multiselect_str/);
    assert.deepEqual(own('contact'), []);
  });

  it('warns about a similar name when piped, and creates anyway', async () => {
    await create('--name', 'Phone number', '--type', 'str');
    const r = await ws(['props', 'create', 'contact', '--name', 'Phone numbers', '--type', 'str']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /warning: A contact property has a similar name: "Phone number" \(phone_number, str\)\. Creating "Phone numbers" anyway\./,
    );
    assert.deepEqual(
      own('contact')
        .map((d) => d.slug)
        .sort(),
      ['phone_number', 'phone_numbers'],
    );
  });

  it('asks on a terminal when a similar name exists; no creates nothing', async () => {
    await create('--name', 'Phone number', '--type', 'str');
    const no = scriptedPrompter({ 'Create "Phone numbers" anyway?': false });
    const r = await ws(['props', 'create', 'contact', '--name', 'Phone numbers', '--type', 'str'], {
      env: ttyEnv,
      tty: true,
      prompter: no,
    });
    assert.equal(r.code, 1);
    assert.match(no.asked[0]!, /similar name: "Phone number" \(phone_number, str\)/);
    assert.match(r.stderr, /Cancelled: nothing was created\./);
    assert.equal(own('contact').length, 1);
    const yes = scriptedPrompter({ 'anyway?': true });
    const ok = await ws(
      ['props', 'create', 'contact', '--name', 'Phone numbers', '--type', 'str'],
      { env: ttyEnv, tty: true, prompter: yes },
    );
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(own('contact').length, 2);
  });

  it('exits 6 when the name or the slug is taken, naming the property that has it', async () => {
    await create('--name', 'Lead source', '--type', 'str');
    const name = await ws(['props', 'create', 'contact', '--name', 'lead SOURCE', '--type', 'num']);
    assert.equal(name.code, 6);
    assert.match(
      name.stderr,
      /A contact property named 'lead SOURCE' already exists: 'Lead source' \(slug lead_source/,
    );
    assert.match(name.stderr, /ws props list contact --term "lead source"/);
    const slug = await ws([
      'props',
      'create',
      'contact',
      '--name',
      'Origin',
      '--type',
      'str',
      '--slug',
      'email',
    ]);
    assert.equal(slug.code, 6);
    assert.match(slug.stderr, /The slug 'email' is already used by the contact property 'Email'/);
    assert.equal(own('contact').length, 1);
  });
});

describe('ws props update', () => {
  it('maps flags to the patch body (type from the definition), by slug or id', async () => {
    const def = await create(
      '--name',
      'Lead source',
      '--type',
      'str',
      '--required',
      '--icon',
      'globe',
    );
    const r = await ws([
      'props',
      'update',
      'contacts',
      'lead_source',
      '--name',
      'Source',
      '--no-required',
      '--disable',
      '--no-icon',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const after = JSON.parse(r.stdout);
    assert.deepEqual(
      [after.name, after.required, after.enabled, after.icon, after.slug],
      ['Source', false, false, null, 'lead_source'],
    );
    const byId = await ws(['props', 'update', 'contact', def.id as string, '--enable', '--json']);
    assert.equal(byId.code, 0, byId.stderr);
    assert.equal(JSON.parse(byId.stdout).enabled, true);
    assert.equal(own('contact')[0]!.enabled, true);
  });

  it('refuses an update without changes, unknown properties (4) and shared defaults (6)', async () => {
    const none = await ws(['props', 'update', 'contact', 'status']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Nothing to update/);
    assert.deepEqual(none.requests, []);
    const missing = await ws(['props', 'update', 'contact', 'nope', '--name', 'X']);
    assert.equal(missing.code, 4);
    const locked = await ws(['props', 'update', 'contact', 'status', '--name', 'State']);
    assert.equal(locked.code, 6);
    assert.match(locked.stderr, /shared default definition: it is locked/);
    const both = await ws(['props', 'update', 'contact', 'status', '--enable', '--disable']);
    assert.equal(both.code, 2);
  });
});

describe('ws props delete', () => {
  it('refuses without --yes when it cannot ask, and deletes with --yes', async () => {
    await create('--name', 'Lead source', '--type', 'str');
    const refused = await ws(['props', 'delete', 'contact', 'lead_source']);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /Not deleting the contact property "Lead source" \(lead_source\) without confirmation/,
    );
    assert.equal(own('contact').length, 1);
    const r = await ws(['props', 'delete', 'contacts', 'lead_source', '--yes', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).deleted.slug, 'lead_source');
    assert.deepEqual(own('contact'), []);
  });

  it('asks on a terminal, by id too; no keeps the property', async () => {
    const def = await create('--name', 'Lead source', '--type', 'str');
    const no = scriptedPrompter({ 'Delete the contact property "Lead source"': false });
    const kept = await ws(['props', 'delete', 'contact', def.id as string], {
      env: ttyEnv,
      tty: true,
      prompter: no,
    });
    assert.equal(kept.code, 1);
    assert.equal(own('contact').length, 1);
    const yes = scriptedPrompter({ 'Delete the contact property': true });
    const gone = await ws(['props', 'rm', 'contact', def.id as string], {
      env: ttyEnv,
      tty: true,
      prompter: yes,
    });
    assert.equal(gone.code, 0, gone.stderr);
    assert.match(gone.stderr, /✓ Deleted the contact property "Lead source" \(lead_source\)\./);
    assert.deepEqual(own('contact'), []);
  });

  it('a property records hold values for: the API refuses, and ws says how to find them', async () => {
    await create('--name', 'Lead source', '--type', 'str');
    const records = recordsOf(t.sandbox.store);
    const held = records.create('contact', { default: { name: 'A', lead_source: 'web' } });
    records.create('contact', { default: { name: 'B' } });
    const r = await ws(['props', 'delete', 'contact', 'lead_source', '--yes']);
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /cannot be deleted: 1 contact record holds a value for it/);
    assert.match(
      r.stderr,
      /Count them with `ws records count contact --where lead_source:is_not_null`, list them with `ws records list contact --where lead_source:is_not_null`, clear or change those values, then delete the property again\./,
    );
    assert.equal(own('contact').length, 1);
    // The command the hint names counts exactly those records.
    const count = await ws(['records', 'count', 'contact', '--where', 'lead_source:is_not_null']);
    assert.equal(count.code, 0, count.stderr);
    assert.equal(count.stdout.trim(), '1');
    records.update('contact', held.id, { default: { lead_source: null } });
    const gone = await ws(['props', 'delete', 'contact', 'lead_source', '--yes']);
    assert.equal(gone.code, 0, gone.stderr);
    assert.deepEqual(own('contact'), []);
    records.reset();
  });

  it('exits 6 for a shared default', async () => {
    const r = await ws(['props', 'delete', 'contact', 'email', '--yes']);
    assert.equal(r.code, 6);
    assert.match(
      r.stderr,
      /'Email' \(slug email, id [0-9a-f-]{36}\) is a shared default definition/,
    );
    assert.ok(model().bySlug(t.sandbox.teamId, 'contact', 'email'));
  });
});

describe('ws props options', () => {
  it('adds, lists, updates (a new value keeps the slug) and removes options', async () => {
    const def = await create('--name', 'Lead source', '--type', 'select_str', '--option', 'Web');
    const add = await ws([
      'props',
      'options',
      'add',
      'contact',
      'lead_source',
      'Trade show',
      '--color-scheme',
      'teal',
      '--json',
    ]);
    assert.equal(add.code, 0, add.stderr);
    const option = JSON.parse(add.stdout);
    assert.deepEqual(
      [option.slug, option.value, option.color_scheme],
      ['trade_show', 'Trade show', 'teal'],
    );
    const list = await ws(['props', 'options', 'list', 'contact', def.id as string]);
    assert.equal(list.stdout, 'web\tWeb\t\t\t0\t\ntrade_show\tTrade show\tteal\t\t1\t\n');
    const upd = await ws([
      'props',
      'options',
      'update',
      'contacts',
      'lead_source',
      'trade_show',
      '--value',
      'Trade fair',
      '--no-color-scheme',
      '--json',
    ]);
    assert.equal(upd.code, 0, upd.stderr);
    assert.deepEqual(
      [
        JSON.parse(upd.stdout).slug,
        JSON.parse(upd.stdout).value,
        JSON.parse(upd.stdout).color_scheme,
      ],
      ['trade_show', 'Trade fair', null],
    );
    const byId = await ws([
      'props',
      'options',
      'update',
      'contact',
      'lead_source',
      option.id,
      '--sort-index',
      '-1',
    ]);
    assert.equal(byId.code, 0, byId.stderr);
    assert.deepEqual(
      own('contact')[0]!.options!.map((o) => o.slug),
      ['trade_show', 'web'],
    );
    const LIST = '0a0a0a0a-0000-4000-8000-00000000000a';
    const hidden = await ws([
      'props',
      'options',
      'update',
      'contact',
      'lead_source',
      'web',
      '--disable',
      '--list-id',
      LIST,
      '--description',
      'From the site',
      '--json',
    ]);
    assert.equal(hidden.code, 0, hidden.stderr);
    const body = JSON.parse(hidden.stdout);
    assert.deepEqual(
      [body.enabled, body.list_id, body.description],
      [false, LIST, 'From the site'],
    );
    const shown = await ws([
      'props',
      'options',
      'update',
      'contact',
      'lead_source',
      'web',
      '--enable',
      '--no-list-id',
    ]);
    assert.equal(shown.code, 0, shown.stderr);
    const web = own('contact')[0]!.options!.find((o) => o.slug === 'web')!;
    assert.deepEqual([web.enabled, web.list_id], [true, null]);
    const refused = await ws(['props', 'options', 'remove', 'contact', 'lead_source', 'web']);
    assert.equal(refused.code, 2);
    const yes = scriptedPrompter({ 'Remove the option "Web" (web)': true });
    const rm = await ws(['props', 'options', 'rm', 'contact', 'lead_source', 'web'], {
      env: ttyEnv,
      tty: true,
      prompter: yes,
    });
    assert.equal(rm.code, 0, rm.stderr);
    assert.deepEqual(
      own('contact')[0]!.options!.map((o) => o.slug),
      ['trade_show'],
    );
  });

  it('reports unknown options (4), taken values (6), nothing to change (2) and non-select properties (2)', async () => {
    await create(
      '--name',
      'Lead source',
      '--type',
      'select_str',
      '--option',
      'Web',
      '--option',
      'Referral',
    );
    const missing = await ws([
      'props',
      'options',
      'update',
      'contact',
      'lead_source',
      'refferal',
      '--value',
      'X',
    ]);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /has no option "refferal"\. Did you mean "referral"\?/);
    const taken = await ws(['props', 'options', 'add', 'contact', 'lead_source', 'web']);
    assert.equal(taken.code, 6);
    assert.match(taken.stderr, /already has an option 'Web' \(slug web/);
    assert.match(taken.stderr, /ws props options list contact lead_source/);
    const nothing = await ws(['props', 'options', 'update', 'contact', 'lead_source', 'web']);
    assert.equal(nothing.code, 2);
    const str = await ws(['props', 'options', 'add', 'contact', 'email', 'x']);
    assert.equal(str.code, 2);
    assert.match(
      str.stderr,
      /has type str: only select_str and multiselect_str properties have options/,
    );
  });
});

describe('the definitions cache', () => {
  it('spares requests: a listing fills it, changes keep it in step', async () => {
    await create('--name', 'Lead source', '--type', 'select_str', '--option', 'Web');
    const teamPath = `/v2/prism/${t.sandbox.teamId}/contact/properties`;
    const list = await ws(['props', 'list', 'contact']);
    assert.equal(list.requests.length, 1);
    const upd = await ws(['props', 'update', 'contact', 'lead_source', '--name', 'Source']);
    assert.equal(upd.code, 0, upd.stderr);
    assert.deepEqual(upd.requests, [`PATCH ${teamPath}/${own('contact')[0]!.id}`]);
    const add = await ws(['props', 'options', 'add', 'contact', 'lead_source', 'Referral']);
    assert.deepEqual(add.requests, [`POST ${teamPath}/${own('contact')[0]!.id}/options`]);
    // The cache saw the new name and the new option.
    const [cacheFile] = definitionFiles();
    const entry = JSON.parse(readFileSync(join(cacheDir(), cacheFile!), 'utf8')).entries.contact;
    const cachedDef = entry.definitions.find((d: { slug: string }) => d.slug === 'lead_source');
    assert.equal(cachedDef.name, 'Source');
    assert.deepEqual(
      cachedDef.options.map((o: { slug: string }) => o.slug),
      ['web', 'referral'],
    );
    const rm = await ws([
      'props',
      'options',
      'remove',
      'contact',
      'lead_source',
      'referral',
      '--yes',
    ]);
    assert.equal(rm.code, 0, rm.stderr);
    assert.equal(rm.requests.length, 1);
    assert.match(rm.stderr, /"Source" \(lead_source\)|lead_source/);
    // A property newer than the cache is found by fetching again.
    model().create(t.sandbox.teamId, 'contact', { name: 'Made elsewhere', type: 'str' });
    const fresh = await ws(['props', 'update', 'contact', 'made_elsewhere', '--required']);
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.deepEqual(
      fresh.requests.map((l) => l.split(' ')[0]),
      ['GET', 'PATCH'],
    );
    // WS_NO_CACHE=1 asks every time.
    const nocache = await ws(['props', 'update', 'contact', 'made_elsewhere', '--no-required'], {
      env: { ...env, WS_NO_CACHE: '1' },
    });
    assert.deepEqual(
      nocache.requests.map((l) => l.split(' ')[0]),
      ['GET', 'PATCH'],
    );
  });

  it('is a 0600 file per base URL and team, without the API key; a corrupt one is ignored', async () => {
    await create('--name', 'Lead source', '--type', 'str');
    await ws(['props', 'list', 'contact']);
    const files = definitionFiles();
    assert.equal(files.length, 1);
    const file = join(cacheDir(), files[0]!);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(t.sandbox.apiKey));
    assert.equal(JSON.parse(text).team_id, t.sandbox.teamId);
    const aged = JSON.parse(text);
    aged.entries.contact.fetched_at = new Date(Date.now() - 5 * 60_000 - 1000).toISOString();
    writeFileSync(file, JSON.stringify(aged));
    const expired = await ws(['props', 'update', 'contact', 'lead_source', '--name', 'A']);
    assert.deepEqual(
      expired.requests.map((l) => l.split(' ')[0]),
      ['GET', 'PATCH'],
      'an entry older than 5 minutes is fetched again',
    );
    const cached = await ws(['props', 'update', 'contact', 'lead_source', '--name', 'B']);
    assert.deepEqual(
      cached.requests.map((l) => l.split(' ')[0]),
      ['PATCH'],
    );
    writeFileSync(file, '{not json');
    const r = await ws(['props', 'update', 'contact', 'status', '--name', 'X']);
    assert.equal(r.code, 6, 'still works (the API refuses the change to a default)');
    assert.deepEqual(
      r.requests.map((l) => l.split(' ')[0]),
      ['GET', 'PATCH'],
    );
  });

  it('never shows one workspace the definitions of another', async () => {
    const other = await startTestSandbox();
    const profile = (s: TestSandbox) => ({
      base_url: s.sandbox.url,
      team_id: s.sandbox.teamId,
      api_key: s.sandbox.apiKey,
      rate_limit: 0,
    });
    try {
      writeProfiles(t.configDir, { sandbox: profile(t), other: profile(other) }, 'sandbox');
      await create('--name', 'Only here', '--type', 'str');
      await ws(['props', 'list', 'contact']);
      const there = await ws(['props', 'get', 'contact', 'only_here', '--profile', 'other']);
      assert.equal(there.code, 4);
      const upd = await ws([
        'props',
        'update',
        'contact',
        'only_here',
        '--name',
        'X',
        '--profile',
        'other',
      ]);
      assert.equal(upd.code, 4);
      assert.equal(definitionFiles().length, 2);
    } finally {
      writeProfiles(t.configDir, { sandbox: profile(t) }, 'sandbox');
      await other.stop();
    }
  });
});
