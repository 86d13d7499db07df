// Demo data (`seed: 'demo'`): a small, realistic workspace so the first `ws records list`
// shows something. Fully deterministic: a fixed PRNG seed and fixed dates, so every demo
// and every snapshot of it is the same. Domains use the reserved .example TLD.

import type { ObjectType } from './object-types.ts';
import { recordsOf } from './resources/records/model.ts';
import type { Values } from './resources/records/types.ts';
import type { Store } from './store.ts';

const SEED = 0x5eed_2025;
/** Creation time of the first demo record; each next one is an hour later. */
const BASE_TIME = Date.parse('2025-01-06T09:00:00.000Z');

// Values fit the shared default definitions (resources/properties/defaults.ts): select
// values are option slugs, references are record ids, dates are YYYY-MM-DD.
const ORGANIZATIONS: [name: string, slug: string, industry: string, employees: number][] = [
  ['Northwind Traders', 'northwind', 'retail', 420],
  ['Acme Robotics', 'acme-robotics', 'manufacturing', 1250],
  ['Bluefin Analytics', 'bluefin', 'software', 85],
  ['Cedar & Stone Academy', 'cedarstone', 'education', 40],
  ['Helios Energy', 'helios-energy', 'manufacturing', 3100],
  ['Lumen Health', 'lumenhealth', 'healthcare', 760],
  ['Orbit Logistics', 'orbit-logistics', 'software', 2200],
  ['Pinecrest Capital', 'pinecrest', 'finance', 130],
  ['Quill Publishing', 'quill', 'education', 60],
  ['Tidewater Foods', 'tidewater', 'retail', 980],
];

const FIRST_NAMES = [
  'Ada',
  'Bruno',
  'Chloe',
  'Dmitri',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Keiko',
  'Liam',
  'Maya',
  'Nikolai',
  'Olivia',
  'Pablo',
  'Quinn',
  'Rosa',
  'Samir',
  'Tara',
  'Umar',
  'Vera',
  'Wei',
  'Yara',
  'Zoe',
];
const LAST_NAMES = [
  'Lovelace',
  'Costa',
  'Martin',
  'Ivanov',
  'Rossi',
  'Haddad',
  'Okafor',
  'Tanaka',
  'Moreau',
  'Berg',
  'Sato',
  'Walsh',
  'Patel',
  'Novak',
  'Brown',
  'Garcia',
  'Fischer',
  'Silva',
  'Khan',
  'Nguyen',
  'Said',
  'Kowalski',
  'Chen',
  'Farah',
  'Dubois',
];
const TITLES = [
  'CEO',
  'CTO',
  'VP Sales',
  'Head of Operations',
  'Procurement Manager',
  'Engineering Manager',
  'Marketing Director',
  'Account Executive',
  'CFO',
  'Product Manager',
];
const DEAL_KINDS = [
  'Platform license',
  'Annual renewal',
  'Pilot',
  'Expansion',
  'Support plan',
  'Onboarding',
];
const STAGES = ['lead', 'qualified', 'proposal', 'won', 'lost'] as const;
/** Win probability (percent) of a deal in each stage. */
const PROBABILITY: Record<(typeof STAGES)[number], number> = {
  lead: 10,
  qualified: 30,
  proposal: 60,
  won: 100,
  lost: 0,
};

/**
 * Fill the store with the demo workspace. Returns the number of records created. The records
 * are created without a cause: filling the store is not a write of the API, and emits no
 * event (records/events.ts).
 */
export function seedDemo(store: Store): number {
  const records = recordsOf(store);
  const random = mulberry32(SEED);
  let created = 0;
  const add = (type: ObjectType, values: Values): string => {
    const { id } = records.create(type, {
      id: uuidFrom(random),
      default: values,
      at: new Date(BASE_TIME + created * 3_600_000).toISOString(),
    });
    created++;
    return id;
  };

  const orgIds = ORGANIZATIONS.map(([name, slug, industry, employees]) =>
    add('organization', { name, domain: `${slug}.example`, industry, employees }),
  );

  /** Contact ids by full name, and the first contact of each organization (by index). */
  const contactIds = new Map<string, string>();
  const firstContactOf: string[] = [];
  for (let i = 0; i < 25; i++) {
    const first = FIRST_NAMES[i]!;
    const last = LAST_NAMES[(i * 7) % LAST_NAMES.length]!;
    const [company, slug] = ORGANIZATIONS[i % ORGANIZATIONS.length]!;
    const id = add('contact', {
      name: `${first} ${last}`,
      email: `${first}.${last}@${slug}.example`.toLowerCase(),
      phone: `+1 415 555 01${String(i + 10).padStart(2, '0')}`,
      company,
      title: pick(random, TITLES),
    });
    contactIds.set(`${first} ${last}`, id);
    firstContactOf[i % ORGANIZATIONS.length] ??= id;
  }

  for (let i = 0; i < 12; i++) {
    const org = (i * 3) % ORGANIZATIONS.length;
    const [company] = ORGANIZATIONS[org]!;
    const month = 1 + ((i * 5) % 12);
    const day = 1 + Math.floor(random() * 28);
    const stage = STAGES[i % STAGES.length]!;
    add('deal', {
      name: `${company}: ${pick(random, DEAL_KINDS)}`,
      amount: 5_000 + Math.round(random() * 95) * 1_000,
      stage,
      probability: PROBABILITY[stage],
      close_date: `2025-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      organization: orgIds[org]!,
      contact: firstContactOf[org]!,
    });
  }

  const contact = (name: string): string => {
    const id = contactIds.get(name);
    if (id === undefined) throw new Error(`The demo seed has no contact named ${name}`);
    return id;
  };

  const identities: [name: string, provider: string, handle: string][] = [
    ['Ada Lovelace', 'email', 'ada.lovelace@northwind.example'],
    ['Bruno Tanaka', 'linkedin', 'bruno-tanaka'],
    ['Chloe Brown', 'twitter', 'chloe_ops'],
    ['Farid Sato', 'email', 'farid.sato@lumenhealth.example'],
  ];
  for (const [name, provider, handle] of identities) {
    const email = provider === 'email' ? { email: handle } : {};
    add('identity', { name, ...email, provider, handle, contact: contact(name) });
  }

  const actions: [title: string, status: string, priority: string, due: string, who: string][] = [
    ['Call Ada about the renewal', 'todo', 'high', '2025-02-03', 'Ada Lovelace'],
    ['Send the Helios proposal', 'done', 'medium', '2025-01-20', 'Elena Ivanov'],
    ['Quarterly review with Orbit Logistics', 'in_progress', 'medium', '2025-03-12', 'Grace Silva'],
    ['Prepare the Pinecrest security questionnaire', 'todo', 'low', '2025-02-18', 'Hiro Dubois'],
  ];
  for (const [title, status, priority, due_date, who] of actions)
    add('action', { title, status, priority, due_date, contact: contact(who) });

  const documents: [title: string, kind: string, file: string, size: number][] = [
    ['Master services agreement: Northwind', 'contract', 'msa-northwind.pdf', 184_320],
    ['Helios Energy proposal v2', 'proposal', 'helios-proposal-v2.pdf', 92_160],
    ['Onboarding checklist', 'other', 'onboarding-checklist.md', 4_096],
  ];
  for (const [title, kind, file, size] of documents) {
    add('document', { title, kind, url: `https://files.example/demo/${file}`, size });
  }
  return created;
}

/** A small deterministic PRNG (mulberry32): numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A version-4 UUID made from the PRNG. */
function uuidFrom(random: () => number): string {
  const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
