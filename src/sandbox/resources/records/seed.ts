// POST /__sandbox/seed: records written to set up a test, firing nothing. The body:
//
//   { "records": { "<object type>": [ { "id"?: uuid, "default": { slug: value }, "list"?: … } ] } }
//
// Each record is checked as a create through the API would be (its values against the
// team's property definitions), keeps the id it is given (a new one otherwise), and is
// written without an event: no automation runs, no webhook is owed, the realtime stream and
// the console's feed do not show it. A reference may name a record written by the same
// seed, in any order. All or nothing: one bad record and none is written, and the answer
// (400) names each problem by its place in the body (records.contact[3].default.email).

import { isPlainObject, isUuid } from '../../../util/guards.ts';
import { type FieldError, invalidRequest, SandboxError } from '../../errors.ts';
import { isObjectType, OBJECT_TYPES, type ObjectType } from '../../object-types.ts';
import type { Reply, RequestContext } from '../../resource.ts';
import type { Scope } from '../properties/scope.ts';
import { newRecord, recordsOf } from './model.ts';
import { checkWrite } from './values.ts';

/** At most this many records per seed request (a larger file is sent in parts). */
export const MAX_SEED_RECORDS = 50_000;

interface Planned {
  type: ObjectType;
  id: string;
  at: string;
  body: Record<string, unknown>;
}

export function seedRecords(ctx: RequestContext): Reply {
  const planned = plan(ctx);
  const records = recordsOf(ctx.store);
  // Every record exists first (with no values), so references among them resolve; then
  // each is checked; then they are written for good, or taken back.
  for (const p of planned) records.create(p.type, { id: p.id });
  const problems: FieldError[] = [];
  const writes = planned.map((p) => {
    const scope: Scope = { store: ctx.store, teamId: ctx.teamId, type: p.type, listId: null };
    try {
      return checkWrite(scope, p.body, 'create');
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      for (const e of err.errors ?? [{ field: '', message: err.message, code: err.code }]) {
        problems.push({ ...e, field: `${p.at}${e.field === '' ? '' : `.${e.field}`}` });
      }
      return undefined;
    }
  });
  for (const p of planned) records.remove(p.type, p.id);
  if (problems.length > 0) {
    const first = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw invalidRequest(
      `Nothing was seeded: ${first.field} ${first.message}${more}.`,
      problems.slice(0, 100),
    );
  }
  const created: Partial<Record<ObjectType, number>> = {};
  for (const [i, p] of planned.entries()) {
    records.create(p.type, { id: p.id, ...newRecord(writes[i]!) });
    created[p.type] = (created[p.type] ?? 0) + 1;
  }
  return { status: 200, body: { created, ids: planned.map((p) => p.id) } };
}

/** The body's records in order, with their ids; a 400 (or 409 for a taken id) otherwise. */
function plan(ctx: RequestContext): Planned[] {
  const body = ctx.body;
  const bad = (field: string, message: string, code = 'type') =>
    invalidRequest(`${field}: ${message}`, [{ field, message, code }]);
  if (!isPlainObject(body) || !isPlainObject(body['records'])) {
    throw bad('body.records', 'must be an object of record lists keyed by object type');
  }
  const unknown = Object.keys(body).filter((k) => k !== 'records');
  if (unknown.length > 0) {
    throw bad(
      `body.${unknown[0]}`,
      'is not a seed field (a seed holds records only)',
      'unknown_field',
    );
  }
  const planned: Planned[] = [];
  const seen = new Set<string>();
  const records = recordsOf(ctx.store);
  for (const [type, list] of Object.entries(body['records'])) {
    if (!isObjectType(type)) {
      throw bad(
        `records.${type}`,
        `is not an object type (one of ${OBJECT_TYPES.join(', ')})`,
        'enum',
      );
    }
    if (!Array.isArray(list)) throw bad(`records.${type}`, 'must be an array of records');
    for (const [i, item] of list.entries()) {
      const at = `records.${type}[${i}]`;
      if (!isPlainObject(item)) throw bad(at, 'must be an object ({ id?, default, list? })');
      const extra = Object.keys(item).filter((k) => !['id', 'default', 'list'].includes(k));
      if (extra.length > 0) {
        throw bad(
          `${at}.${extra[0]}`,
          'is not a field of a seeded record (id, default, list)',
          'unknown_field',
        );
      }
      const id = item['id'] ?? crypto.randomUUID();
      if (typeof id !== 'string' || !isUuid(id)) throw bad(`${at}.id`, 'must be a UUID', 'format');
      if (seen.has(`${type}/${id}`)) throw bad(`${at}.id`, `is given twice (${id})`, 'duplicate');
      if (records.get(type, id) !== undefined) {
        throw new SandboxError(
          409,
          'conflict',
          `${at}.id: a ${type} record with the id ${id} exists already; nothing was seeded.`,
          [
            {
              field: `${at}.id`,
              message: `a ${type} record with the id ${id} exists already`,
              code: 'conflict',
            },
          ],
        );
      }
      seen.add(`${type}/${id}`);
      const { id: _id, ...values } = item;
      planned.push({ type, id, at, body: values });
      if (planned.length > MAX_SEED_RECORDS) {
        throw bad(
          'body.records',
          `holds more than ${MAX_SEED_RECORDS.toLocaleString('en-US')} records: send them in parts`,
          'too_many',
        );
      }
    }
  }
  return planned;
}
