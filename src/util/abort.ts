// The command's AbortSignal (made in main.ts) tells ws's own waits that it is aborted
// (Ctrl-C, SIGTERM) without EventTarget's listeners: a command's first addEventListener()
// and removeEventListener() on a signal cost it ~1 ms (Node compiles them as they first
// run), and a one-request command adds and removes one for its request. Any other signal
// (a caller's own, in tests or embedding code) is listened to as usual.

const listenersOf = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * An AbortController whose abort() also calls, once, the listeners onAbort() gave its
 * signal (after the signal's own 'abort' event).
 */
export function commandAbortController(): AbortController {
  const controller = new AbortController();
  const listeners = new Set<() => void>();
  listenersOf.set(controller.signal, listeners);
  const abort = controller.abort.bind(controller);
  controller.abort = (reason?: unknown) => {
    const first = !controller.signal.aborted;
    abort(reason);
    if (!first) return;
    const called = [...listeners];
    listeners.clear();
    for (const listener of called) listener();
  };
  return controller;
}

/**
 * Calls `listener` once when `signal` aborts (not if it already has: check `aborted` first,
 * as with addEventListener). Returns what removes it.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  const listeners = listenersOf.get(signal);
  if (listeners !== undefined) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}
