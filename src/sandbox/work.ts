// Work a write starts that goes on off the request's synchronous path: an automation's email
// step rendering its subject for each recipient (in the template worker), and the webhook
// deliveries an automation's webhook steps ask for (made a few milliseconds at a time). The
// server keeps a write's promise that its automation steps have run before it answers
// ("its steps run before the write answers"): it runs the handler `within()` a scope that
// collects the work tracked on its way (an AsyncLocalStorage, so the automations matched in
// the handler's microtask count too), and waits for that work alone, while other requests
// (health, reads) are answered in between. An asynchronous import job runs each step the
// same way, so its work never piles up.
//
// A piece of work that fails is reported (the sandbox's log) and counts as ended.

import { AsyncLocalStorage } from 'node:async_hooks';

export class Work {
  /** The work of the scope `within()` runs, where one runs. */
  private readonly scope = new AsyncLocalStorage<Set<Promise<void>>>();
  /** Work tracked and not ended: each piece, and the promise that it ended. */
  private readonly ending = new Map<Promise<unknown>, Promise<void>>();
  private readonly report: (err: unknown) => void;

  constructor(report: (err: unknown) => void) {
    this.report = report;
  }

  /** Run `fn`; the promise resolves with its value once the work it tracked has ended. */
  async within<T>(fn: () => T | Promise<T>): Promise<T> {
    const tracked = new Set<Promise<void>>();
    const value = await this.scope.run(tracked, fn);
    // Work may track more work as it goes on (the next step of a run).
    while (tracked.size > 0) await Promise.all([...tracked]);
    return value;
  }

  /**
   * Track `work` until it ends, for the scope it is tracked in, if any: a piece of work
   * shared by several writes (the deliveries being made) is tracked by each.
   */
  track(work: Promise<unknown>): void {
    let ended = this.ending.get(work);
    if (ended === undefined) {
      ended = work.then(
        () => {
          this.ending.delete(work);
        },
        (err: unknown) => {
          this.ending.delete(work);
          this.report(err);
        },
      );
      this.ending.set(work, ended);
    }
    const scope = this.scope.getStore();
    if (scope === undefined || scope.has(ended)) return;
    scope.add(ended);
    void ended.then(() => scope.delete(ended));
  }

  /** True while any tracked work has not ended. */
  get busy(): boolean {
    return this.ending.size > 0;
  }
}
