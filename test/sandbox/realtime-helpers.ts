// Helpers of the realtime tests: a ticket over real HTTP, and a reader of the stream (the
// `ws` package's client) that keeps every message, checks each against the contract's
// RealtimeMessage schema, and waits for what a test expects.

import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { WebSocket } from 'ws';
import { loadContract } from '../../src/contract/index.ts';
import type { RunningSandbox } from '../../src/sandbox/sandbox.ts';
import { call } from './helpers.ts';
import type { Json } from './webhook-helpers.ts';

export type { Json };

export async function ticket(
  sandbox: Pick<RunningSandbox, 'port' | 'apiKey'>,
): Promise<{ ticket: string; expires_in: number; ws_url: string }> {
  const answer = await call(sandbox, 'POST', '/v2/realtime/ticket');
  assert.equal(answer.status, 201, answer.text);
  return answer.body;
}

export interface Reader {
  ws: WebSocket;
  messages: Json[];
  /** The change messages. */
  changes(): Json[];
  /** Messages that do not match the contract's RealtimeMessage. */
  problems: string[];
  waitFor(pred: (messages: Json[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Open the stream with a new ticket and `query` (after, types); closed after the test. */
export async function openStream(
  t: TestContext,
  sandbox: Pick<RunningSandbox, 'port' | 'apiKey'>,
  query: Record<string, string> = {},
): Promise<Reader> {
  const { ticket: token, ws_url } = await ticket(sandbox);
  const url = new URL(ws_url);
  url.search = new URLSearchParams({ token, ...query }).toString();
  const ws = new WebSocket(url);
  const contract = loadContract();
  const reader: Reader = {
    ws,
    messages: [],
    changes: () => reader.messages.filter((m) => m.kind === 'change'),
    problems: [],
    async waitFor(pred, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(reader.messages)) {
        if (Date.now() > deadline) {
          const last = reader.messages.slice(-5).map((m) => `${m.kind} ${m.position ?? ''}`);
          throw new Error(`never saw ${what}; the last messages: ${last.join(', ')}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    closed: new Promise((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    ),
  };
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    reader.messages.push(message);
    reader.problems.push(...contract.validateSchema('RealtimeMessage', message));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  t.after(() => ws.terminate());
  return reader;
}
