// Why the sandbox is doing what it does: the API request it is answering, or the import job
// whose rows it is writing. The server runs each request within its cause, and the import
// runner each step of a job within the job's, so a listener of the event spine (the activity
// log) reads the cause of a write where it hears of it, without the write passing it along.
// An AsyncLocalStorage, so the cause follows a request across its awaits (the automation
// steps its writes started run in the request's microtasks).

import { AsyncLocalStorage } from 'node:async_hooks';

export type Cause =
  | {
      readonly kind: 'request';
      readonly requestId: string;
      readonly method: string;
      /** The path as sent, without the query string. */
      readonly path: string;
    }
  | { readonly kind: 'import'; readonly jobId: string };

const causes = new AsyncLocalStorage<Cause>();

/** Run `fn` (and the work it starts) with `cause` as the current cause. */
export function withCause<T>(cause: Cause, fn: () => T): T {
  return causes.run(cause, fn);
}

/** The cause of what runs now; undefined outside requests and import steps (timers). */
export function currentCause(): Cause | undefined {
  return causes.getStore();
}
