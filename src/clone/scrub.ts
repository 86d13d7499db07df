// `ws sandbox clone --scrub`: personal data in a clone replaced by stand-ins, the same
// stand-in for the same value every time, so a clone taken twice scrubs the same way and
// a value that repeats (a contact's email in a deal's notes) stays recognisably the same.
//
// Each stand-in comes from an HMAC-SHA256 of the value keyed with a secret (clone.ts: the
// profile's API key, or WS_SCRUB_KEY): without the key no one can test a guessed email
// against a stand-in, and with the same key the same value gives the same stand-in.
//
// What is recognised:
//   - emails, anywhere in any text value: `user-<10 hex>@example.com` (a reserved domain);
//   - phone numbers: the whole value of a property whose slug or name says phone, mobile,
//     tel or fax, and in other text anything shaped like one (7 to 15 digits with + ( ) . -
//     or spaces, not a date or part of a longer token): `+999 <9 digits>` (+999 is not
//     assigned to any country);
//   - people's names: the whole value of a contact's or identity's property whose slug or
//     name says name (first_name, last_name, full_name, name…): a made-up name from the
//     lists below; and those names wherever they appear whole in other text values of the
//     clone.

import { createHmac } from 'node:crypto';
import { isPlainObject } from '../util/guards.ts';

/** Object types whose records are people, whose name properties hold personal names. */
const PERSON_TYPES = new Set(['contact', 'identity']);

// biome-ignore format: a list of names reads better in rows
const FIRST = [
  'Alex', 'Blake', 'Casey', 'Dana', 'Eli', 'Frankie', 'Gray', 'Harper', 'Indy', 'Jamie',
  'Kai', 'Lee', 'Morgan', 'Noa', 'Oakley', 'Parker', 'Quinn', 'Riley', 'Sage', 'Taylor',
  'Uma', 'Val', 'Wren', 'Xan', 'Yael', 'Zion', 'Avery', 'Bailey', 'Cameron', 'Drew',
  'Emery', 'Finley',
];
// biome-ignore format: a list of names reads better in rows
const LAST = [
  'Abbott', 'Barros', 'Castell', 'Dorn', 'Ekwueme', 'Falk', 'Gallo', 'Hale', 'Ibarra',
  'Jansen', 'Kowal', 'Lind', 'Moreau', 'Nakata', 'Okafor', 'Pruitt', 'Quist', 'Rahal',
  'Sato', 'Toivonen', 'Ueda', 'Varga', 'Weller', 'Xiong', 'Yilmaz', 'Zeller', 'Arce',
  'Brandt', 'Cole', 'Duarte', 'Esposito', 'Fischer',
];

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const HAS_EMAIL = new RegExp(EMAIL.source);
/** A phone number in free text: not inside a word, a UUID or a longer number. */
const PHONE_IN_TEXT = /(?<![\w.-])\+?\(?\d[\d ().-]{5,22}\d(?![\w-]|\.\d)/g;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}|^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$|^\d{1,2}:\d{2}/;

export type ScrubKind = 'email' | 'phone' | 'name';

/** A property as the scrubber sees it. */
export interface ScrubbedProperty {
  objectType: string;
  slug: string;
  name?: string | null | undefined;
  type: string;
}

function words(p: ScrubbedProperty): string {
  return `${p.slug} ${p.name ?? ''}`.toLowerCase();
}

/** A text property whose whole value is a phone number. */
export function isPhoneProperty(p: ScrubbedProperty): boolean {
  return /^(str|text|multi_str)$/.test(p.type) && /phone|mobile|\btel\b|_tel\b|fax/.test(words(p));
}

/** Which part of a person's name a property holds, if it holds one. */
export function nameKind(p: ScrubbedProperty): 'first' | 'last' | 'full' | undefined {
  if (!PERSON_TYPES.has(p.objectType) || !/^(str|text)$/.test(p.type)) return undefined;
  const w = words(p);
  if (!/name/.test(w) || /user ?name|nick|company|organi[sz]ation|file|domain/.test(w))
    return undefined;
  if (/first|given|fore/.test(w)) return 'first';
  if (/last|family|sur/.test(w)) return 'last';
  return 'full';
}

function digitCount(text: string): number {
  return text.replace(/\D/g, '').length;
}

export class Scrubber {
  /** What was replaced, by kind. */
  readonly counts: Record<ScrubKind, number> = { email: 0, phone: 0, name: 0 };
  /** Personal names seen in name properties, with their stand-ins, longest first once sorted. */
  private readonly names = new Map<string, string>();
  private namePattern: RegExp | undefined;

  constructor(private readonly key: string) {}

  private digest(kind: string, value: string): Buffer {
    return createHmac('sha256', this.key).update(`${kind}\0${value}`).digest();
  }

  email(value: string): string {
    return `user-${this.digest('email', value.toLowerCase()).toString('hex').slice(0, 10)}@example.com`;
  }

  phone(value: string): string {
    const d = this.digest('phone', value.replace(/\D/g, ''));
    const digits = [...d.subarray(0, 9)].map((b) => String(b % 10)).join('');
    return `+999 ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
  }

  personName(value: string, kind: 'first' | 'last' | 'full'): string {
    const d = this.digest('name', value.trim().toLowerCase());
    const first = FIRST[d[0]! % FIRST.length]!;
    const last = LAST[d[1]! % LAST.length]!;
    return kind === 'first' ? first : kind === 'last' ? last : `${first} ${last}`;
  }

  /** Note the names of a record's name properties, so they are found in other text too. */
  learnNames(p: ScrubbedProperty, value: unknown): void {
    const kind = nameKind(p);
    if (kind === undefined || typeof value !== 'string' || value.trim().length < 3) return;
    if (!this.names.has(value)) {
      this.names.set(value, this.personName(value, kind));
      this.namePattern = undefined;
    }
  }

  /** Emails, phone numbers and known names replaced in free text. */
  text(value: string): string {
    let out = value.replace(EMAIL, (m) => {
      this.counts.email++;
      return this.email(m);
    });
    out = out.replace(PHONE_IN_TEXT, (m) => {
      const digits = digitCount(m);
      if (digits < 7 || digits > 15 || DATE_LIKE.test(m.trim())) return m;
      this.counts.phone++;
      return this.phone(m);
    });
    if (this.names.size > 0) {
      this.namePattern ??= new RegExp(
        `(?<![\\p{L}\\p{N}])(?:${[...this.names.keys()]
          .sort((a, b) => b.length - a.length)
          .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('|')})(?![\\p{L}\\p{N}])`,
        'gu',
      );
      out = out.replace(this.namePattern, (m) => {
        this.counts.name++;
        return this.names.get(m) ?? m;
      });
    }
    return out;
  }

  /** A record's value of property `p`, scrubbed. */
  value(p: ScrubbedProperty, value: unknown): unknown {
    if (typeof value === 'string') {
      const kind = nameKind(p);
      if (kind !== undefined && value.trim() !== '') {
        this.counts.name++;
        return this.personName(value, kind);
      }
      if (isPhoneProperty(p) && digitCount(value) > 0 && !HAS_EMAIL.test(value)) {
        this.counts.phone++;
        return this.phone(value);
      }
      return this.text(value);
    }
    return this.deep(value, (s) => (isPhoneProperty(p) ? this.value(p, s) : this.text(s)));
  }

  /** Every string inside a JSON value (a filter, a jsonb value) through `each`. */
  deep(value: unknown, each: (s: string) => unknown = (s) => this.text(s)): unknown {
    if (typeof value === 'string') return each(value);
    if (Array.isArray(value)) return value.map((v) => this.deep(v, each));
    if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.deep(v, each);
      return out;
    }
    return value;
  }
}
