// An automation as a user writes it, with flags (`ws automations create deal --on-change
// stage:to=won --webhook "Deal alerts"`) or in a file (`automations.yaml`): conditions in
// the --where language, webhooks, contact views and properties by name, each part with the
// place it was written. `compileDraft` turns it into the API's body, resolving names through
// the look-ups (lookups.ts), and collects every problem with its place, so a command can
// refuse a bad automation before any write and say where each mistake is.
import type {
  ActionItem,
  Automation,
  AutomationKind,
  AutomationWrite,
} from '../api/automations.ts';
import { checkAutomation } from '../automation-engine/check.ts';
import { UsageError } from '../errors.ts';
import { checkPath, type PropertyDefinition, type SlugContext } from '../query/slugs.ts';
import { type Filter, parseWhereExpr } from '../query/where.ts';
import { isUuid } from '../util/guards.ts';
import { type ChangeCondition, changeEntries, parseDelay, parseOnChange } from './language.ts';
import type { Lookups } from './lookups.ts';

/** Where a part of a draft was written: a flag, or a place in a file. */
export type Source =
  | { readonly kind: 'flag'; readonly flag: string }
  | { readonly kind: 'file'; readonly at: string; readonly path: string; readonly offset: number };

export interface Sourced<T> {
  readonly value: T;
  readonly source: Source;
}

/** Expressions that go together: a list in a file is one entry; otherwise `together` is false. */
export interface ItemGroup {
  readonly items: readonly Sourced<string>[];
  readonly together: boolean;
}

/** --on-change or --where conditions: undefined groups keep what the automation has. */
export interface ConditionsDraft {
  readonly groups?: readonly ItemGroup[] | undefined;
  /** OR (--any for changes, --or for --where); undefined keeps it, or AND for new groups. */
  readonly any?: boolean | undefined;
}

export type ActionDraft = { readonly source: Source } & (
  | { readonly type: 'webhook'; readonly webhook: Sourced<string> }
  | { readonly type: 'wait'; readonly delay: Sourced<string | number> }
  | { readonly type: 'wait'; readonly cron: Sourced<string>; readonly timezone?: Sourced<string> }
  | { readonly type: 'agent'; readonly agent: Sourced<string> }
  | (MessageDraft & {
      readonly type: 'email';
      readonly emailProperty: Sourced<string>;
      readonly subject: Sourced<string>;
    })
  | (MessageDraft & { readonly type: 'linkedin'; readonly providerProperty: Sourced<string> })
);

/** What both message steps (email, linkedin) have: recipients (a contact view), sender, template. */
interface MessageDraft {
  readonly view: Sourced<string>;
  readonly sendAs: Sourced<string>;
  readonly template: Sourced<string>;
}

export interface Draft {
  /** The automation as a whole (a file's list item; for flags, the command line). */
  readonly source: Source;
  readonly name?: Sourced<string> | undefined;
  readonly kind?: Sourced<AutomationKind> | undefined;
  readonly enabled?: Sourced<boolean> | undefined;
  readonly listId?: Sourced<string | null> | undefined;
  readonly onChange?: ConditionsDraft | undefined;
  /** Any update (an empty changeset). */
  readonly onUpdate?: Sourced<boolean> | undefined;
  readonly onCreate?: Sourced<boolean> | undefined;
  readonly onDelete?: Sourced<boolean> | undefined;
  readonly where?: ConditionsDraft | undefined;
  /** undefined keeps the automation's actions. */
  readonly actions?: readonly ActionDraft[] | undefined;
}

/** One problem of a draft: where, and what. `labelled`: the message already quotes the place. */
export interface Problem {
  readonly source: Source;
  readonly message: string;
  readonly labelled?: boolean;
}

/** The problem as a line: `--where "x": …` or `automations.yaml:7:9: automations.deal[0].where[0]: …`. */
export function problemText(p: Problem): string {
  if (p.source.kind === 'file') return `${p.source.at}: ${p.source.path}: ${p.message}`;
  return p.labelled ? p.message : `${p.source.flag}: ${p.message}`;
}

/** Problems as one usage error (exit 2): of flags, each on a line; of a file, under `heading`. */
export function problemsError(problems: readonly Problem[], heading?: string): UsageError {
  const lines = problems.map(problemText);
  if (heading === undefined) {
    return new UsageError(
      lines.length === 1
        ? lines[0]!
        : `${lines.length} problems with the automation:\n${lines.map((l) => `  ${l}`).join('\n')}`,
    );
  }
  return new UsageError(
    `${heading}:\n${lines.map((l) => `  ${l}`).join('\n')}`,
    'The format is described in the manual, docs/as-code.md ("Automations as code"); `ws automations export` writes a valid file to start from.',
  );
}

export interface Compiled {
  readonly body: AutomationWrite;
  readonly problems: readonly Problem[];
  /** Things not checked (a webhook id that could not be looked up), for a warning. */
  readonly notes: readonly string[];
}

/** A UsageError's message and hint as one problem message. */
function usageText(err: unknown): string {
  if (!(err instanceof UsageError)) throw err;
  return err.hint ? `${err.message} ${err.hint}` : err.message;
}

/** How a message names an expression: its flag and text, or (in a file) its text. */
function shownAs(source: Source, text: string): string {
  return source.kind === 'flag' ? source.flag : `"${text}"`;
}

/**
 * The body the draft describes on object type `type`: on top of `base` (an update), or from
 * the defaults (a create). Names are resolved and conditions checked with `lookups`.
 */
export function compileDraft(
  draft: Draft,
  type: string,
  lookups: Lookups,
  base?: Automation,
): Compiled {
  return new Compiler(draft, type, lookups, base).compile();
}

class Compiler {
  private readonly problems: Problem[] = [];
  private readonly notes: string[] = [];
  /** Fields of the body (`changeset.filter[0].stage.to.=`) → where they were written. */
  private readonly origins = new Map<string, Source>();
  /** Fields of the body made from parts already reported (their API problems follow from those). */
  private readonly broken = new Set<string>();

  constructor(
    private readonly draft: Draft,
    private readonly type: string,
    private readonly lookups: Lookups,
    private readonly base: Automation | undefined,
  ) {}

  private problem(source: Source, message: string, labelled = false): void {
    this.problems.push({ source, message, labelled });
  }

  compile(): Compiled {
    const { draft, base } = this;
    const kind = this.kind();
    const name = draft.name?.value ?? base?.name ?? '';
    if (name.trim() === '') {
      this.problem(draft.name?.source ?? draft.source, 'an automation needs a name.');
    }
    const listId = draft.listId !== undefined ? draft.listId.value : (base?.list_id ?? null);
    if (draft.listId?.value != null && !isUuid(draft.listId.value)) {
      this.problem(draft.listId.source, `"${draft.listId.value}" is not a list id (a UUID).`);
    }
    const ctx = this.slugContext(listId);
    const body: AutomationWrite = {
      kind,
      name,
      enabled: draft.enabled?.value ?? base?.enabled ?? true,
      list_id: listId,
      changeset: kind === 'update' ? this.changeset(ctx) : null,
      state: this.state(ctx, kind),
      on_create: kind === 'lifecycle' ? this.flag('onCreate', 'on_create') : null,
      on_delete: kind === 'lifecycle' ? this.flag('onDelete', 'on_delete') : null,
      actions: this.actions(),
    };
    this.check(body, listId);
    return { body, problems: this.problems, notes: this.notes };
  }

  /** The kind the draft says or implies, else the automation's. */
  private kind(): AutomationKind {
    const { draft, base } = this;
    const updates = draft.onChange?.groups !== undefined || draft.onUpdate?.value === true;
    const lifecycle = draft.onCreate?.value === true || draft.onDelete?.value === true;
    const changeSource = draft.onChange?.groups?.[0]?.items[0]?.source ?? draft.onUpdate?.source;
    if (updates && lifecycle) {
      this.problem(
        changeSource ?? draft.source,
        'an automation fires either on updates (on-change, on-update) or on create and delete (on-create, on-delete), not both: make two automations.',
      );
    }
    if (draft.onUpdate?.value === true && (draft.onChange?.groups?.length ?? 0) > 0) {
      this.problem(
        draft.onUpdate.source,
        'on-update fires on every update; with on-change conditions it would not: give one of them.',
      );
    }
    const implied: AutomationKind | undefined = updates
      ? 'update'
      : lifecycle
        ? 'lifecycle'
        : undefined;
    if (draft.kind !== undefined) {
      if (implied !== undefined && implied !== draft.kind.value) {
        this.problem(
          draft.kind.source,
          `kind ${draft.kind.value} does not fit ${implied === 'update' ? 'on_change / on_update (update automations)' : 'on_create / on_delete (lifecycle automations)'}.`,
        );
      }
      return draft.kind.value;
    }
    if (implied !== undefined) return implied;
    if (base !== undefined) return base.kind;
    this.problem(
      draft.source,
      'say when the automation fires: on changes (--on-change SLUG…, or --on-update for any update) or on create and delete (--on-create, --on-delete).',
    );
    return 'update';
  }

  private flag(key: 'onCreate' | 'onDelete', field: 'on_create' | 'on_delete'): boolean {
    const own = this.draft[key];
    if (own !== undefined) return own.value;
    return this.base?.kind === 'lifecycle' ? this.base[field] === true : false;
  }

  private slugContext(listId: string | null): SlugContext {
    const definitions = this.lookups.definitions(this.type, listId);
    return definitions === undefined ? {} : { definitions, objectType: this.type };
  }

  private changeset(ctx: SlugContext): AutomationWrite['changeset'] {
    const { draft, base } = this;
    const own = draft.onChange;
    const kept = base?.kind === 'update' ? base.changeset : undefined;
    const combinator = (any: boolean | undefined, fallback: string | undefined) =>
      any === undefined ? (fallback === 'OR' ? 'OR' : 'AND') : any ? 'OR' : 'AND';
    if (draft.onUpdate?.value === true) return { combinator: 'AND', filter: [] };
    if (own?.groups === undefined) {
      if (kept == null) {
        this.problem(
          draft.source,
          'an update automation needs the changes it fires on: --on-change SLUG… (on_change in a file), or --on-update for every update.',
        );
        return { combinator: 'AND', filter: [] };
      }
      return { combinator: combinator(own?.any, kept.combinator), filter: [...kept.filter] };
    }
    const groups: { conditions: ChangeCondition[]; together: boolean }[] = [];
    const sources: Source[][] = [];
    for (const group of own.groups) {
      const conditions: ChangeCondition[] = [];
      const from: Source[] = [];
      for (const item of group.items) {
        try {
          conditions.push(parseOnChange(item.value, ctx, shownAs(item.source, item.value)));
          from.push(item.source);
        } catch (err) {
          this.problem(item.source, usageText(err), true);
        }
      }
      groups.push({ conditions, together: group.together });
      sources.push(from);
    }
    const { entries, placed } = changeEntries(groups);
    placed.forEach((where, g) => {
      where.forEach(({ entry, condition }, i) => {
        const source = sources[g]![i]!;
        const at = `changeset.filter[${entry}].${condition.slug}`;
        if (!this.origins.has(at)) this.origins.set(at, source);
        const op = Object.keys(condition.comparison ?? {})[0];
        if (condition.side !== undefined && op !== undefined)
          this.origins.set(`${at}.${condition.side}.${op}`, source);
      });
    });
    if (entries.length === 0 && this.problems.length === 0) {
      this.problem(
        draft.source,
        'on_change has no conditions: name the properties whose changes fire it, or fire on every update (on_update).',
      );
    }
    return {
      combinator: combinator(own.any, own.any === undefined ? undefined : kept?.combinator),
      filter: entries,
    };
  }

  private state(ctx: SlugContext, kind: AutomationKind): AutomationWrite['state'] {
    const own = this.draft.where;
    const kept = this.base?.state ?? null;
    let state: { combinator: 'AND' | 'OR'; filter: Filter[] } | null;
    if (own?.groups === undefined) {
      state =
        kept === null
          ? null
          : {
              combinator:
                own?.any === undefined
                  ? kept.combinator === 'OR'
                    ? 'OR'
                    : 'AND'
                  : own.any
                    ? 'OR'
                    : 'AND',
              filter: [...kept.filter],
            };
      if (state === null && own?.any !== undefined && own.any) {
        state = { combinator: 'OR', filter: [] };
      }
    } else {
      const filter: Filter[] = [];
      for (const group of own.groups) {
        const parts: Filter[] = [];
        for (const item of group.items) {
          const entry = this.whereEntry(item, ctx);
          if (entry === undefined) continue;
          const at = `state.filter[${filter.length}]`;
          if (!this.origins.has(at)) this.origins.set(at, item.source);
          if (group.together) parts.push(entry);
          else filter.push(entry);
        }
        if (parts.length > 0) filter.push(Object.assign({}, ...parts) as Filter);
      }
      state = { combinator: own.any === true ? 'OR' : 'AND', filter };
    }
    // An update automation without conditions on the record has no state.
    if (
      state !== null &&
      state.filter.length === 0 &&
      kind === 'update' &&
      own?.groups !== undefined
    )
      state = null;
    // A lifecycle automation requires a state: no condition is an empty one (always holds).
    if (state === null && kind === 'lifecycle') state = { combinator: 'AND', filter: [] };
    return state;
  }

  /** One --where expression as a state entry, its slugs checked; undefined (recorded) when bad. */
  private whereEntry(item: Sourced<string>, ctx: SlugContext): Filter | undefined {
    const shown = shownAs(item.source, item.value);
    try {
      const entry = parseWhereExpr(item.value, ctx);
      this.checkDotPath(Object.keys(entry)[0]!, ctx, shown);
      return entry;
    } catch (err) {
      const message = usageText(err).split(`--where "${item.value}"`).join(shown);
      this.problem(item.source, message, true);
      return undefined;
    }
  }

  /**
   * The steps of a dot-path after the first (parseWhereExpr checked the first): each a
   * property of the type the step before references, or a usage error with the closest
   * slugs. Types whose definitions are not known are left to the evaluator's checks.
   */
  private checkDotPath(path: string, ctx: SlugContext, shown: string): void {
    const parts = path.split('.');
    let def = ctx.definitions?.find((d) => d.slug === parts[0]);
    for (let i = 1; i < parts.length && def !== undefined; i++) {
      const type = def.type.replace(/^(multi)?ref_/, '');
      const definitions = this.lookups.definitions(type, null);
      if (definitions === undefined) return;
      const rest = parts.slice(i).join('.');
      def = checkPath(rest, { definitions, objectType: type, extraSlugs: [] }, shown);
    }
  }

  private actions(): ActionItem[] {
    const own = this.draft.actions;
    if (own === undefined) return [...(this.base?.actions ?? [])];
    const out: ActionItem[] = [];
    for (const action of own) {
      const before = this.problems.length;
      const item = this.action(action);
      if (item !== undefined) {
        if (this.problems.length > before) this.broken.add(`actions[${out.length}]`);
        const at = `actions[${out.length}]`;
        this.origins.set(at, action.source);
        if (action.type === 'wait' && 'cron' in action) {
          this.origins.set(`${at}.cron_expression`, action.cron.source);
          if (action.timezone) this.origins.set(`${at}.timezone`, action.timezone.source);
        }
        if (action.type === 'wait' && 'delay' in action)
          this.origins.set(`${at}.delay_seconds`, action.delay.source);
        out.push(item);
      }
    }
    return out;
  }

  private uuid(s: Sourced<string>, what: string): string {
    if (!isUuid(s.value)) this.problem(s.source, `"${s.value}" is not ${what} (a UUID).`);
    return s.value;
  }

  private text(s: Sourced<string>, what: string): string {
    if (s.value.trim() === '') this.problem(s.source, `${what} cannot be empty.`);
    return s.value;
  }

  private action(a: ActionDraft): ActionItem | undefined {
    const { lookups } = this;
    const resolved = (r: { id?: string; problem?: string; note?: string }, s: Source) => {
      if (r.problem !== undefined) this.problem(s, r.problem);
      if (r.note !== undefined) this.notes.push(r.note);
      return r.id ?? '';
    };
    switch (a.type) {
      case 'webhook':
        return {
          type: 'webhook',
          webhook_id: resolved(lookups.webhook(a.webhook.value), a.webhook.source),
        };
      case 'agent':
        return { type: 'agent', agent_id: this.uuid(a.agent, 'an agent id') };
      case 'wait': {
        if ('delay' in a) {
          const seconds =
            typeof a.delay.value === 'number' ? a.delay.value : parseDelay(a.delay.value);
          if (seconds === undefined || seconds < 0 || !Number.isFinite(seconds)) {
            this.problem(
              a.delay.source,
              `a wait takes a duration (30m, 2h, 1d, 1h30m) or a number of seconds, not "${a.delay.value}".`,
            );
            return undefined;
          }
          return { type: 'wait', delay_seconds: seconds };
        }
        const item: ActionItem = {
          type: 'wait',
          cron_expression: this.text(a.cron, 'A cron expression'),
        };
        if (a.timezone !== undefined) item.timezone = this.text(a.timezone, 'A time zone');
        return item;
      }
      case 'email':
      case 'linkedin': {
        // What both message steps have: their recipients (a contact view) and sender.
        const common = {
          recipient_view_id: resolved(lookups.contactView(a.view.value), a.view.source),
          recipient_view_object_type: 'contact' as const,
          send_as_user_id: this.text(a.sendAs, 'send_as_user_id'),
          template_id: this.uuid(a.template, 'a template id'),
        };
        const prop = a.type === 'email' ? a.emailProperty : a.providerProperty;
        const propId = resolved(lookups.contactProperty(prop.value), prop.source);
        return a.type === 'email'
          ? {
              type: 'email',
              ...common,
              recipient_email_prop_def_id: propId,
              subject: a.subject.value,
            }
          : { type: 'linkedin', ...common, recipient_provider_prop_def_id: propId };
      }
    }
  }

  /**
   * The API's rules beyond the shape (src/automation-engine/check.ts), placed where they
   * were written.
   */
  private check(body: AutomationWrite, listId: string | null): void {
    const found = checkAutomation(
      { ...body, list_id: listId },
      this.type,
      this.lookups.workspace(),
    );
    // A part already found wrong (a slug, a name) is not reported twice.
    const placed = new Set(this.problems.map((p) => p.source));
    const reported = this.problems.length > 0;
    for (const p of found) {
      const source = this.originOf(p.field);
      if (placed.has(source) || (reported && source === this.draft.source)) continue;
      if ([...this.broken].some((f) => p.field === f || p.field.startsWith(`${f}.`))) continue;
      const message = p.message.replace(/\.$/, '');
      this.problem(source, `${message}.`);
    }
  }

  /** The source of the longest recorded field that `field` lies in; else the automation's. */
  private originOf(field: string): Source {
    let best: { key: string; source: Source } | undefined;
    for (const [key, source] of this.origins) {
      const inside = field === key || field.startsWith(`${key}.`) || field.startsWith(`${key}[`);
      if (inside && (best === undefined || key.length > best.key.length)) best = { key, source };
    }
    if (best !== undefined) return best.source;
    if (field === 'on_create') return this.draft.onCreate?.source ?? this.draft.source;
    if (field === 'on_delete') return this.draft.onDelete?.source ?? this.draft.source;
    return this.draft.source;
  }
}

export type { PropertyDefinition };
