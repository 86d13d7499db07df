// Carrying out a plan: definitions before their options, deletes of definitions last,
// one request at a time. The first failure stops the apply; the error says which change
// failed and how many were made before it (each one was reported as it was made).
import type { ApiClient } from '../api/client.ts';
import {
  annotateError,
  createOption,
  createProperty,
  deleteOption,
  deleteProperty,
  type OptionCreate,
  type OptionInline,
  type PropertyCreate,
  type PropertyDefinition,
  type PropertyPatch,
  updateOption,
  updateProperty,
} from '../api/props.ts';
import type { SchemaProperty } from './file.ts';
import {
  type Change,
  type FieldChange,
  type OptionStep,
  optionChange,
  type Plan,
  type PropertyStep,
  propertyChange,
} from './plan.ts';

function fieldsOf(changes: readonly FieldChange[]): Record<string, unknown> {
  return Object.fromEntries(changes.map((f) => [f.field, f.to]));
}

/** The body of an option create: its slug and the fields the plan sets. */
function optionBody(o: OptionStep): Omit<OptionCreate, 'type'> {
  return { slug: o.slug, ...(fieldsOf(o.fields) as { value: string }) };
}

function createBody(p: SchemaProperty, inline: OptionInline[]): PropertyCreate {
  return {
    name: p.name,
    type: p.type,
    slug: p.slug,
    required: p.required,
    ...(p.icon !== null ? { icon: p.icon } : {}),
    ...(p.list_id !== null ? { list_id: p.list_id } : {}),
    ...(p.role_id !== undefined ? { role_id: p.role_id } : {}),
    ...(p.options !== undefined ? { options: inline } : {}),
  };
}

class Runner {
  readonly made: Change[] = [];
  /** The change being made, for the error message. */
  current: Change | undefined;

  /** Definitions created without a role_id: their roles are their types' defaults (roles.ts). */
  readonly defaultRoled: PropertyDefinition[] = [];

  constructor(
    private readonly client: ApiClient,
    private readonly done: (changes: Change[]) => void,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Make one change (one or more requests) and report it. */
  async make(changes: Change[], work: () => Promise<unknown>): Promise<void> {
    this.current = changes[0];
    await work();
    this.made.push(...changes);
    this.done(changes);
  }

  async step(s: PropertyStep): Promise<void> {
    const { client, signal } = this;
    const own = propertyChange(s);
    const type = s.objectType;
    if (s.action === 'unchanged') return;
    if (s.action === 'delete') {
      await this.make([own!], () => deleteProperty(client, type, s.current!, signal));
      return;
    }
    if (s.action === 'create') {
      const p = s.desired!;
      // Options on a list of their own cannot be given inline; they are added after.
      const inline = s.options.filter((o) => o.desired?.list_id === undefined);
      // A new definition is enabled; a disabled one takes a second request.
      const created = { ...own!, changes: own!.changes.filter((f) => f.field !== 'enabled') };
      let id = '';
      await this.make([created, ...inline.map((o) => optionChange(s, o))], async () => {
        const body = createBody(
          p,
          inline.map((o) => optionBody(o) as OptionInline),
        );
        const def = await createProperty(client, type, body, signal);
        id = def.id;
        if (body.role_id === undefined) this.defaultRoled.push(def);
      });
      if (!p.enabled) {
        const disable = {
          ...own!,
          action: 'update' as const,
          changes: [{ field: 'enabled', from: true, to: false }],
        };
        await this.make([disable], () =>
          updateProperty(client, type, id, { type: p.type, enabled: false }, signal),
        );
      }
      for (const o of s.options.filter((x) => !inline.includes(x))) {
        await this.make([optionChange(s, o)], () =>
          createOption(client, type, id, { type: p.type, ...optionBody(o) }, signal),
        );
      }
      return;
    }
    const def = s.current!;
    if (own) {
      const patch = { type: def.type, ...fieldsOf(s.fields) } as PropertyPatch;
      await this.make([own], () => updateProperty(client, type, def.id, patch, signal));
    }
    for (const o of s.options) {
      await this.make([optionChange(s, o)], () => {
        if (o.action === 'delete') return deleteOption(client, type, def, o.current!.id, signal);
        if (o.action === 'update')
          return updateOption(
            client,
            type,
            def.id,
            o.current!.id,
            { type: def.type, ...fieldsOf(o.fields) },
            signal,
          );
        return createOption(client, type, def.id, { type: def.type, ...optionBody(o) }, signal);
      });
    }
  }
}

function describe(c: Change): string {
  return `${c.action} ${c.object_type}.${c.property}${c.option === null ? '' : ` option ${c.option}`}`;
}

/**
 * Apply every step of `plan` (which must have no problems) in order, calling `done` after
 * each change is made. Returns the changes made. On a failure, throws the API's error (its
 * status and exit code kept) with a message naming the change that failed and a hint
 * saying how many were made before it.
 */
export async function applyPlan(
  client: ApiClient,
  plan: Plan,
  done: (changes: Change[]) => void,
  signal?: AbortSignal,
  /** Given the definitions created without a role_id, once the apply ends (or stops). */
  created?: (defs: PropertyDefinition[]) => Promise<void>,
): Promise<Change[]> {
  const run = new Runner(client, done, signal);
  for (const s of plan.steps) {
    try {
      await run.step(s);
    } catch (err) {
      await created?.(run.defaultRoled);
      const n = run.made.length;
      throw annotateError(err, {
        prefix: run.current ? `Stopped at "${describe(run.current)}": ` : '',
        hint:
          n === 0
            ? `Nothing was changed. Fix the cause and apply ${plan.file} again.`
            : `${n} change${n === 1 ? ' was' : 's were'} made before it (listed on stdout); nothing after it was attempted. Fix the cause and apply ${plan.file} again: what is done already is left as it is.`,
      });
    }
  }
  await created?.(run.defaultRoled);
  return run.made;
}
