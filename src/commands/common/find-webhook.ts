// Finding the webhook a user named, by id or name (the webhooks verbs and `ws deliveries
// --webhook`), and keeping names unique so that a name finds one webhook.
import type { ApiClient } from '../../api/client.ts';
import { getWebhook, listWebhooks, type Webhook } from '../../api/webhooks.ts';
import { ApiError, ConflictError, NotFoundError } from '../../errors.ts';
import type { Deps } from '../../factory.ts';
import { isUuid } from '../../util/guards.ts';
import { shellWord } from '../../util/shell.ts';
import { givenIdOrName, oneNamed } from './by-name.ts';

/**
 * The webhook a user named: an id is taken as it is; anything else is a name, looked up in
 * the listing (exact, then ignoring case). None is "not found" (exit 4) with the names
 * there are; several are a usage error (exit 2) listing their ids.
 */
export async function resolveWebhook(
  deps: Deps,
  client: ApiClient,
  idOrName: string,
): Promise<{ id: string; webhook?: Webhook }> {
  const given = givenIdOrName(idOrName, 'A webhook');
  if (isUuid(given)) return { id: given };
  const all = await listWebhooks(client, { signal: deps.signal });
  const webhook = oneNamed(all, given, {
    one: 'webhook',
    many: 'webhooks',
    heading: 'Webhooks',
    none: 'There are no webhooks; create one with `ws webhooks create --name NAME --url URL`.',
    label: (w) => `${w.id} (${w.url})`,
  });
  return { id: webhook.id, webhook };
}

/**
 * Refuse a name another webhook has (ignoring case): ws's verbs and automation files find
 * webhooks by name, and a second one of the same name would make them all fail. The API
 * itself does not refuse it. `self` is the webhook being renamed.
 */
export async function refuseTakenName(
  deps: Deps,
  client: ApiClient,
  name: string,
  self?: string,
): Promise<void> {
  const all = await listWebhooks(client, { signal: deps.signal });
  const taken = all.find((w) => w.id !== self && w.name.toLowerCase() === name.toLowerCase());
  if (taken === undefined) return;
  throw new ConflictError(
    `A webhook is already named "${taken.name}" (${taken.id}, ${taken.url}).`,
    `Webhooks are found by name (\`ws webhooks get ${shellWord(taken.name)}\`, automation files), so names are unique: pick another --name, or change that webhook with \`ws webhooks update ${shellWord(taken.name)}\`.`,
  );
}

/** The webhook, read unless the name lookup already gave it. */
export async function webhookOf(deps: Deps, client: ApiClient, idOrName: string): Promise<Webhook> {
  const found = await resolveWebhook(deps, client, idOrName);
  return found.webhook ?? getWebhook(client, found.id, { signal: deps.signal }).catch(notFound);
}

/** For `.catch()`: a 404 of a webhook gets a hint to list them. */
export function notFound(err: unknown): never {
  if (err instanceof ApiError && err.status === 404) {
    throw new NotFoundError(err.message, 'List the webhooks with `ws webhooks list`.');
  }
  throw err;
}
