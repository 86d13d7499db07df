// The Liquid templates of automations: an email step's `subject`, rendered per recipient
// (api.md: "Liquid template per recipient") with liquidjs, Shopify's dialect. Shared by the
// sandbox, which renders subjects at each send step, and the CLI, which checks them.
//
// Variables: `contact` (the recipient's values by slug, and its `id`), `record` (the values
// of the record the automation fired on, after the write, and its `id`), `automation`
// (`id`, `name`) and `object_type`. An unknown variable renders as nothing.
//
// Automations come from files people share, so a template is untrusted input, and it is
// bounded:
//   - no file system: `include`, `render` and `layout` (the tags that read other templates)
//     are refused when the template is parsed, so an automation using one is refused when it
//     is created or replaced (and by `ws automations validate`); the engine is also given an
//     empty set of templates, so no tag could reach a file;
//   - a template is at most MAX_TEMPLATE_LENGTH characters (liquidjs's parseLimit; the API
//     contract refuses a longer subject at the door);
//   - one render may take RENDER_LIMIT_MS (liquidjs's renderLimit, checked before each tag
//     and output) and allocate MEMORY_LIMIT strings and array items (memoryLimit: ranges,
//     filters), and what it renders is at most MAX_SUBJECT_LENGTH characters.
// A render that breaks a limit throws a TemplateError; the sandbox records it for that
// recipient. Parsed templates are kept (the latest few hundred), so a step that renders one
// subject for every recipient parses it once.

import { Liquid, type Template } from 'liquidjs';

/** Longest template accepted, in characters. */
export const MAX_TEMPLATE_LENGTH = 10_000;
/** Longest rendered subject, in characters: the line length RFC 5322 allows a header. */
export const MAX_SUBJECT_LENGTH = 998;
/** Longest one render may take, in milliseconds. */
export const RENDER_LIMIT_MS = 50;
/** Strings characters and array items one render may allocate. */
export const MEMORY_LIMIT = 1_000_000;
/** The tags that read other templates: refused. */
export const FILE_TAGS = ['include', 'render', 'layout'] as const;

const engine = new Liquid({
  templates: {},
  parseLimit: MAX_TEMPLATE_LENGTH,
  renderLimit: RENDER_LIMIT_MS,
  memoryLimit: MEMORY_LIMIT,
});
/** A tag that reads files, met while parsing. */
class FileTagError extends Error {
  readonly tag: string;
  constructor(tag: string) {
    super(`{% ${tag} %} is not allowed`);
    this.tag = tag;
  }
}
for (const tag of FILE_TAGS) {
  engine.registerTag(tag, {
    parse() {
      throw new FileTagError(tag);
    },
    render() {},
  });
}

/** A template that cannot be parsed or rendered within the limits; the message says why. */
export class TemplateError extends Error {
  /** `template` (does not parse or render), `limit` (a render limit), `too_long` (output). */
  readonly code: 'template' | 'limit' | 'too_long';
  constructor(code: TemplateError['code'], message: string) {
    super(message);
    this.name = 'TemplateError';
    this.code = code;
  }
}

const parsed = new Map<string, Template[]>();
const KEPT_PARSES = 256;

function parse(template: string): Template[] {
  let templates = parsed.get(template);
  if (templates !== undefined) return templates;
  if (template.length > MAX_TEMPLATE_LENGTH) {
    throw new TemplateError(
      'template',
      `is ${template.length} characters long; a template may have at most ${MAX_TEMPLATE_LENGTH}.`,
    );
  }
  try {
    templates = engine.parse(template);
  } catch (err) {
    const cause = (err as { originalError?: unknown }).originalError;
    if (cause instanceof FileTagError) {
      const at = /line:(\d+), col:(\d+)$/.exec(messageOf(err));
      const where = at === null ? '' : ` (line ${at[1]}, column ${at[2]})`;
      throw new TemplateError(
        'template',
        `uses {% ${cause.tag} %}${where}, which reads template files: an automation's template may not read files (${FILE_TAGS.join(', ')} are refused); write the text into the template itself.`,
      );
    }
    throw new TemplateError('template', `is not a valid Liquid template: ${messageOf(err)}.`);
  }
  if (parsed.size >= KEPT_PARSES) parsed.delete(parsed.keys().next().value!);
  parsed.set(template, templates);
  return templates;
}

/** Why `template` does not parse as Liquid (or uses a tag that reads files); undefined when it does. */
export function templateProblem(template: string): string | undefined {
  try {
    parse(template);
    return undefined;
  } catch (err) {
    return (err as TemplateError).message;
  }
}

/** `template` rendered with `variables`; a TemplateError when it cannot be within the limits. */
export function renderTemplate(template: string, variables: Record<string, unknown>): string {
  const templates = parse(template);
  let text: string;
  try {
    text = engine.renderSync(templates, variables) as string;
  } catch (err) {
    const message = messageOf(err);
    const limit = /limit exceeded/.test(message);
    throw new TemplateError(
      limit ? 'limit' : 'template',
      limit
        ? `does not render within the limits (${RENDER_LIMIT_MS} ms, ${MEMORY_LIMIT} characters or items allocated): ${message}`
        : `does not render: ${message}`,
    );
  }
  if (text.length > MAX_SUBJECT_LENGTH) {
    throw new TemplateError(
      'too_long',
      `renders ${text.length} characters; a subject may have at most ${MAX_SUBJECT_LENGTH}.`,
    );
  }
  return text;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
