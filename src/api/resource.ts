// The calls every resource of the API makes alike, written once: read one, create, patch,
// replace, delete and act on one, at `…/{collection}`, `…/{collection}/{id}` and
// `…/{collection}/{id}/{action}`. Each is a typed call
// with the signature a hand-written one would have, `(client, ...scope, [id,] [body,] opts?)`,
// that answers the body the service sent; its errors are the client's (api/errors.ts).
import type { ApiClient } from './client.ts';

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

/**
 * A resource's collection path, from the client (its team) and the resource's scope: the
 * object type it belongs to, or nothing. It takes the scope as plain parameters (no default
 * values): their count tells the calls where the scope ends and their own arguments begin.
 */
type CollectionPath<Scope extends unknown[]> = (client: ApiClient, ...scope: Scope) => string[];

export function resource<Scope extends unknown[]>(collection: CollectionPath<Scope>) {
  const scopeSize = collection.length - 1;
  /** Sends `method` to the collection, or to the item whose id follows the scope, or its action. */
  async function send<T>(
    client: ApiClient,
    method: string,
    args: unknown[],
    parts: { id: boolean; body: boolean; action?: string },
  ): Promise<T> {
    let next = scopeSize;
    const path = collection(client, ...(args.slice(0, next) as Scope));
    if (parts.id) path.push(args[next++] as string);
    if (parts.action !== undefined) path.push(parts.action);
    const body = parts.body ? args[next++] : undefined;
    const opts = (args[next] ?? {}) as CallOptions;
    const res = await client.request<T>({ method, path, body, signal: opts.signal });
    return res.body;
  }
  const item = { id: true, body: false };
  const write = { id: true, body: true };
  return {
    /** GET …/{id} → the item. */
    get: <T>(client: ApiClient, ...args: [...Scope, id: string, opts?: CallOptions]) =>
      send<T>(client, 'GET', args, item),
    /** POST …/{collection} → the created item. */
    create: <Body, T>(client: ApiClient, ...args: [...Scope, body: Body, opts?: CallOptions]) =>
      send<T>(client, 'POST', args, { id: false, body: true }),
    /** PATCH …/{id} → the item with the fields given changed. */
    update: <Patch, T>(
      client: ApiClient,
      ...args: [...Scope, id: string, patch: Patch, opts?: CallOptions]
    ) => send<T>(client, 'PATCH', args, write),
    /** PUT …/{id} → the item replaced. */
    replace: <Body, T>(
      client: ApiClient,
      ...args: [...Scope, id: string, body: Body, opts?: CallOptions]
    ) => send<T>(client, 'PUT', args, write),
    /** DELETE …/{id}. */
    remove: async (
      client: ApiClient,
      ...args: [...Scope, id: string, opts?: CallOptions]
    ): Promise<void> => {
      await send(client, 'DELETE', args, item);
    },
    /** POST …/{id}/{action}, with no body → the answer. */
    action:
      <T>(action: string) =>
      (client: ApiClient, ...args: [...Scope, id: string, opts?: CallOptions]) =>
        send<T>(client, 'POST', args, { ...item, action }),
  };
}
