// Where email subjects are rendered: in a worker thread, never on the thread that answers
// requests. A subject is a Liquid template from an automation, which comes from files people
// share: untrusted input. src/automation-engine/template.ts bounds each render (no file system,
// RENDER_LIMIT_MS, MEMORY_LIMIT, MAX_SUBJECT_LENGTH); the worker bounds the rest:
//
//   - the server's thread only posts the recipients and waits for their subjects, so a
//     template can never hold up other requests, however long it takes;
//   - a step's renders share STEP_RENDER_MS of the worker's time: recipients left when it
//     is spent fail with `render_budget` (at 50 µs a render, a legitimate subject reaches
//     100,000 recipients within it);
//   - a worker that does not answer in time (a render that escaped liquidjs's checks) is
//     stopped, its recipients fail with `limit`, and the next render starts a new one; its
//     heap is capped (WORKER_HEAP_MB), so a render that allocates without bound ends the
//     worker, not the sandbox.
//
// One worker serves every sandbox of the process (started on the first render; it keeps the
// process alive only while a render is under way); renders queue in it in the order they
// were asked for.
// The worker runs this same module (the worker_threads pattern of Node's documentation):
// `serve()` below answers the main thread's batches.

import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { renderTemplate, TemplateError } from '../../../automation-engine/template.ts';

/** Worker time a step's renders may take in all (ms). */
export const STEP_RENDER_MS = 5_000;
/** Recipients sent to the worker in one message: at most this many, */
const BATCH = 200;
/** and about this many characters of their values (a message is copied on this thread). */
const BATCH_CHARACTERS = 256 * 1024;
/** How much longer than its budget a batch may take before the worker is stopped (ms). */
const GRACE_MS = 2_000;
/** The worker's heap cap (MiB). */
const WORKER_HEAP_MB = 256;
const ROLE = 'ws-sandbox-subject-renderer';

/** A recipient's rendered subject, or why it has none. */
export type Rendered = { subject: string } | { error: { code: string; message: string } };

interface BatchRequest {
  id: number;
  template: string;
  /** Variables every recipient shares (`record`, `automation`, `object_type`). */
  shared: Record<string, unknown>;
  /** Each recipient's `contact` variable. */
  contacts: Record<string, unknown>[];
  /** Worker time left for the step (ms). */
  budgetMs: number;
}

interface BatchAnswer {
  id: number;
  results: Rendered[];
  /** Worker time the batch took (ms). */
  tookMs: number;
}

/** Render `template` for each contact, within the step's budget. */
export async function renderSubjects(
  template: string,
  shared: Record<string, unknown>,
  contacts: readonly Record<string, unknown>[],
): Promise<Rendered[]> {
  const results: Rendered[] = [];
  let budgetMs = STEP_RENDER_MS;
  for (let i = 0; i < contacts.length; ) {
    const batch = [contacts[i++]!];
    let characters = charactersOf(batch[0]);
    while (i < contacts.length && batch.length < BATCH && characters < BATCH_CHARACTERS) {
      characters += charactersOf(contacts[i]);
      batch.push(contacts[i++]!);
    }
    if (budgetMs <= 0) {
      for (const _ of batch) results.push(budgetSpent());
      continue;
    }
    const answer = await renderer().render({ template, shared, contacts: batch, budgetMs });
    results.push(...answer.results);
    budgetMs -= answer.tookMs;
  }
  return results;
}

/** About how many characters a recipient's values hold (what copying them costs). */
function charactersOf(values: Record<string, unknown> | undefined): number {
  let n = 0;
  for (const value of Object.values(values ?? {})) {
    if (typeof value === 'string') n += value.length;
    else if (Array.isArray(value)) for (const item of value) n += String(item).length;
    else n += 8;
  }
  return n;
}

function budgetSpent(): Rendered {
  return {
    error: {
      code: 'render_budget',
      message: `Not rendered: the step's subjects took more than ${STEP_RENDER_MS} ms to render in all, so the recipients left were not rendered.`,
    },
  };
}

// ------------------------------------------------------------------ main thread

class Renderer {
  private worker: Worker | undefined;
  private next = 1;
  /** Batches posted and not answered, in the order the worker takes them. */
  private readonly waiting = new Map<
    number,
    { resolve: (answer: BatchAnswer) => void; count: number; budgetMs: number }
  >();
  /** The worker is stopped if the batch it works on has not answered by then. */
  private timer: NodeJS.Timeout | undefined;

  render(request: Omit<BatchRequest, 'id'>): Promise<BatchAnswer> {
    const worker = this.start();
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, { resolve, count: request.contacts.length, budgetMs: request.budgetMs });
      worker.postMessage({ id, ...request } satisfies BatchRequest);
      if (this.waiting.size === 1) {
        // A render under way keeps the process alive; an idle worker does not.
        worker.ref();
        this.armFor(request.budgetMs);
      }
    });
  }

  /** The worker starts on the batch at the head of the queue: it has its budget and GRACE_MS. */
  private armFor(budgetMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => this.stop(`did not answer within ${Math.round(budgetMs + GRACE_MS)} ms`),
      budgetMs + GRACE_MS,
    );
    this.timer.unref();
  }

  private start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const url = JSON.stringify(import.meta.url);
    // Built, the worker loads this module's file of dist/ (CommonJS); from the TypeScript
    // sources (ws's own tests), it loads them as the parent does, through tsx.
    const boot = import.meta.url.endsWith('.ts')
      ? `import ('tsx/esm/api').then((tsx) => tsx.tsImport(${url}, ${url}))`
      : `require(require('node:url').fileURLToPath(${url}))`;
    const worker = new Worker(boot, {
      eval: true,
      workerData: { [ROLE]: true },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.on('message', (answer: BatchAnswer) => this.answered(answer));
    worker.on('error', (err) => {
      if (this.worker === worker) this.stop(`stopped: ${err.message}`);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.stop(`exited with code ${code}`);
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private answered(answer: BatchAnswer): void {
    const waiter = this.waiting.get(answer.id);
    if (waiter === undefined) return;
    this.waiting.delete(answer.id);
    clearTimeout(this.timer);
    this.timer = undefined;
    const head = this.waiting.values().next();
    if (!head.done) this.armFor(head.value.budgetMs);
    else this.worker?.unref();
    waiter.resolve(answer);
  }

  /** End the worker; the batches it had fail (the next render starts a new worker). */
  private stop(why: string): void {
    const worker = this.worker;
    this.worker = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    void worker?.terminate();
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    const failed: Rendered = {
      error: {
        code: 'limit',
        message: `Not rendered: the worker that renders subjects ${why}, and was restarted.`,
      },
    };
    for (const waiter of waiting) {
      waiter.resolve({
        id: 0,
        results: Array.from({ length: waiter.count }, () => failed),
        tookMs: waiter.budgetMs,
      });
    }
  }
}

let shared: Renderer | undefined;

function renderer(): Renderer {
  shared ??= new Renderer();
  return shared;
}

// ------------------------------------------------------------------ worker

function serve(): void {
  parentPort!.on('message', (request: BatchRequest) => {
    const started = performance.now();
    const results: Rendered[] = [];
    for (const contact of request.contacts) {
      if (performance.now() - started > request.budgetMs) {
        results.push(budgetSpent());
        continue;
      }
      try {
        results.push({
          subject: renderTemplate(request.template, { ...request.shared, contact }),
        });
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        results.push({ error: { code: err.code, message: `The subject ${err.message}` } });
      }
    }
    parentPort!.postMessage({
      id: request.id,
      results,
      tookMs: performance.now() - started,
    } satisfies BatchAnswer);
  });
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[ROLE] === true) serve();
