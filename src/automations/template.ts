// The Liquid templates of automations: an email step's `subject`, rendered per recipient
// (api.md: "Liquid template per recipient") with liquidjs, Shopify's dialect. Shared by the
// sandbox, which renders subjects at each send step, and the CLI, which checks them.
//
// Variables: `contact` (the recipient's values by slug, and its `id`), `record` (the values
// of the record the automation fired on, after the write, and its `id`), `automation`
// (`id`, `name`) and `object_type`. An unknown variable renders as nothing.

import { Liquid } from 'liquidjs';

const engine = new Liquid({ cache: true });

/** Why `template` does not parse as Liquid; undefined when it does. */
export function templateProblem(template: string): string | undefined {
  try {
    engine.parse(template);
    return undefined;
  } catch (err) {
    return `is not a valid Liquid template: ${(err as Error).message}.`;
  }
}

/** `template` rendered with `variables`. Throws when it does not parse or render. */
export function renderTemplate(template: string, variables: Record<string, unknown>): string {
  return engine.parseAndRenderSync(template, variables);
}
