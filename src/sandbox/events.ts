// The event spine of the sandbox: how resources hear about each other's changes without
// calling each other. A model announces what it changed (records: a record created,
// updated, deleted, restored; properties: a definition or an option created, updated,
// deleted) on the store's bus, and the resources that react subscribe: views today,
// automations and webhook deliveries next. The emitting model never imports them.
//
// Two kinds of topic, each defined once by the resource that emits it (its events.ts):
//
// - an event (defineEvent) is news, emitted after the state changed. Listeners run
//   synchronously, in subscription order, before the write returns. Events are delivered in
//   the order they were emitted: an event emitted by a listener (a reaction that writes) is
//   queued and delivered once every listener has had the one before. A listener that throws
//   does not undo the write nor stop the other listeners: its error goes to the bus's error
//   handler (the sandbox's log, else a process warning) and the write answers as it would
//   have, as the hosted service's reactions run apart from the write.
// - a check (defineCheck) is a question, asked before a change: a listener refuses by
//   throwing (a SandboxError: the request's answer), and nothing has changed yet.
//
// Emitting costs one map look-up when nobody listens: an emitter asks listening() before it
// builds an event (imports write 200,000 rows).

/** News of a change, emitted after it happened. `T` is the event's type. */
export interface EventTopic<T> {
  readonly kind: 'event';
  readonly name: string;
  /** Never set: carries `T` for the type checker. */
  readonly payload?: T;
}

/** A question asked before a change; a listener refuses it by throwing. */
export interface CheckTopic<T> {
  readonly kind: 'check';
  readonly name: string;
  /** Never set: carries `T` for the type checker. */
  readonly payload?: T;
}

export type Topic<T> = EventTopic<T> | CheckTopic<T>;

export function defineEvent<T>(name: string): EventTopic<T> {
  return { kind: 'event', name };
}

export function defineCheck<T>(name: string): CheckTopic<T> {
  return { kind: 'check', name };
}

export type Listener<T> = (payload: T) => void;

/** Told about every error a listener of an event throws. */
export type ListenerErrorHandler = (error: unknown, topic: string) => void;

/** The default handler: a process warning (stderr), so a failing listener is seen. */
export const warnOfListenerError: ListenerErrorHandler = (error, topic) => {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.emitWarning(`A listener of ${topic} failed: ${detail}`, 'SandboxListenerWarning');
};

export class EventBus {
  /** Listeners by topic; the arrays are replaced, never changed, so delivery can iterate. */
  private readonly listeners = new Map<Topic<unknown>, readonly Listener<unknown>[]>();
  /** Events emitted and not delivered yet, in emission order. */
  private readonly queue: { topic: EventTopic<unknown>; event: unknown }[] = [];
  private delivering = false;
  private readonly onListenerError: ListenerErrorHandler;

  constructor(options: { onListenerError?: ListenerErrorHandler } = {}) {
    this.onListenerError = options.onListenerError ?? warnOfListenerError;
  }

  /** Call `listener` with every event (or check) of `topic`. Returns the unsubscribe. */
  on<T>(topic: Topic<T>, listener: Listener<T>): () => void {
    const added = listener as Listener<unknown>;
    this.listeners.set(topic, [...(this.listeners.get(topic) ?? []), added]);
    return () => {
      const left = (this.listeners.get(topic) ?? []).filter((l) => l !== added);
      if (left.length === 0) this.listeners.delete(topic);
      else this.listeners.set(topic, left);
    };
  }

  /** True when someone listens to `topic`: build an event only then. */
  listening(topic: Topic<unknown>): boolean {
    return this.listeners.has(topic);
  }

  /**
   * Deliver `event` to the listeners of `topic` (after the change it tells of). Returns once
   * it, and every event its listeners emitted, has been delivered.
   */
  emit<T>(topic: EventTopic<T>, event: T): void {
    if (!this.listeners.has(topic)) return;
    if (this.delivering) {
      this.queue.push({ topic, event });
      return;
    }
    this.delivering = true;
    try {
      this.deliver(topic, event);
      for (let i = 0; i < this.queue.length; i++) {
        const next = this.queue[i]!;
        this.deliver(next.topic, next.event);
      }
    } finally {
      this.queue.length = 0;
      this.delivering = false;
    }
  }

  /** One event to every listener of its topic; their errors go to the handler. */
  private deliver(topic: EventTopic<unknown>, event: unknown): void {
    for (const listener of this.listeners.get(topic) ?? []) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err, topic.name);
      }
    }
  }

  /**
   * Tell the error handler about an error of a listener's work that it deferred (it ran
   * apart from the emit): the same handler as for listeners' own errors.
   */
  report(error: unknown, topic: string): void {
    this.onListenerError(error, topic);
  }

  /** Ask the listeners of `topic` about a change not made yet: the first to throw refuses it. */
  check<T>(topic: CheckTopic<T>, proposal: T): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(proposal);
  }
}
