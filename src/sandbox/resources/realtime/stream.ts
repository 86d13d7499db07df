// The realtime stream: WebSocket readers of the change feed (../../changes.ts). The `ws`
// package speaks the protocol; this file decides what each reader is sent and when.
//
// - A reader opens `GET /v2/realtime/stream?token=<ticket>[&after=<position>][&types=a,b]`:
//   the ticket is used up; `after` resumes after a position it was given; `types` keeps
//   changes of those record types (the others still move its position). It is sent `ready`
//   (where it starts), then `gap` when `after` cannot be honoured (too old for the window,
//   another stream), then every change after its start, in order, one JSON message each.
// - Each reader pulls from the feed at its own pace: the sandbox keeps no queue per reader,
//   only what the socket holds. When more than `highWaterBytes` are queued to it the sandbox
//   stops sending, and goes on when the socket drains. A reader whose socket stays full (a
//   second and more: one catching up fills it for moments) while it falls more than
//   `lagLimit` changes behind, or for `stallMs`, is sent `behind` (with its position) and
//   disconnected (its socket dropped 5 s later, whatever it does): it reconnects and
//   resumes from that position, which the window still
//   holds. So a slow or stalled reader costs at most its buffer, whatever the number of
//   changes.
// - Every `heartbeatMs`: a `heartbeat` with the reader's position (a reader whose types are
//   quiet still moves on), and a ping; a reader that did not answer the last ping is dropped.
// - A reset of the sandbox starts a new stream: readers are sent `reset` and go on with it.
//
// Messages (the hosted service does not publish its format; this is the sandbox's, in the
// contract as RealtimeMessage):
//   { kind: 'ready', position, latest, oldest }
//   { kind: 'change', position, type, id, change, source, at, changes, record, list_changes? }
//   { kind: 'heartbeat', position }  { kind: 'gap', from, to, reason, message }
//   { kind: 'behind', position, message }  { kind: 'reset', position }

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  type ChangeFeed,
  changesOf,
  type FeedChange,
  type Position,
  parsePosition,
} from '../../changes.ts';
import { invalidRequest, SandboxError } from '../../errors.ts';
import { isObjectType, OBJECT_TYPES } from '../../object-types.ts';
import type { UpgradeContext } from '../../resource.ts';
import type { Store } from '../../store.ts';
import type { Values } from '../records/types.ts';
import type { RealtimeSettings } from './settings.ts';
import { ticketsOf } from './tickets.ts';

/** How long a socket stays full before its reader counts as stalled (catching up fills it). */
const STALL_GRACE_MS = 1_000;

/** How long a closed reader's socket is kept for it to read its last messages and close. */
const CLOSE_GRACE_MS = 5_000;

/** The close code of a reader that fell behind (4000-4999: the application's own). */
export const CLOSE_BEHIND = 4001;

const REFUSALS = {
  missing:
    'No ticket: open the stream with the token query parameter set to a ticket from POST /v2/realtime/ticket.',
  unknown:
    'The ticket is not one this sandbox gave out, or it was used already (a ticket opens one stream): ask POST /v2/realtime/ticket for another.',
  expired:
    'The ticket expired before it was used: ask POST /v2/realtime/ticket for another and open the stream at once.',
} as const;

type Diff = Record<string, { from: unknown; to: unknown }>;

/** What a change is told as. */
export function changeMessage(feed: ChangeFeed, c: FeedChange): Record<string, unknown> {
  const changes: Diff = {};
  const listChanges: Record<string, Diff> = {};
  const diff = (from: Values | null | undefined, to: Values | undefined, into: Diff = {}) => {
    for (const slug of new Set([...Object.keys(from ?? {}), ...Object.keys(to ?? {})])) {
      const a = from?.[slug] ?? null;
      const b = to?.[slug] ?? null;
      if (!isDeepStrictEqual(a, b)) into[slug] = { from: a, to: b };
    }
    return into;
  };
  if (c.change === 'created') {
    diff(null, c.values, changes);
    for (const [listId, values] of Object.entries(c.lists ?? {})) {
      listChanges[listId] = diff(null, values);
    }
  } else if (c.change === 'updated') {
    for (const [slug, from] of Object.entries(c.from ?? {})) {
      changes[slug] = { from, to: c.values[slug] ?? null };
    }
    for (const [listId, from] of Object.entries(c.lists_from ?? {})) {
      listChanges[listId] = diff(from, c.lists?.[listId]);
    }
  }
  const record: Record<string, unknown> = { id: c.id, default: c.values };
  if (c.lists !== undefined) record['list'] = c.lists;
  const message: Record<string, unknown> = {
    kind: 'change',
    position: feed.position(c.seq),
    type: c.type,
    id: c.id,
    change: c.change,
    source: c.source,
    at: c.at,
    changes,
    record,
  };
  if (Object.keys(listChanges).length > 0) message['list_changes'] = listChanges;
  return message;
}

class Session {
  /** The last change handled (sent, or skipped by its type). */
  cursor: number;
  stream: string;
  /** The last heartbeat's ping was answered. */
  alive = true;
  closing = false;
  /** Since when the socket has been full (ms), when it is. */
  stalledSince: number | undefined;
  private waitingDrain = false;

  constructor(
    readonly id: number,
    private readonly ws: WebSocket,
    private readonly feed: ChangeFeed,
    private readonly settings: RealtimeSettings,
    private readonly types: ReadonlySet<string> | undefined,
    start: number,
  ) {
    this.cursor = start;
    this.stream = feed.streamId;
  }

  get buffered(): number {
    return this.ws.bufferedAmount;
  }

  get position(): string {
    return this.feed.position(this.cursor);
  }

  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message), () => this.drained());
  }

  private drained(): void {
    if (this.waitingDrain && this.ws.bufferedAmount < this.settings.highWaterBytes / 2) {
      this.waitingDrain = false;
      this.pump();
    }
  }

  /** Send what the feed has after the cursor, while the socket takes it. */
  pump(): void {
    if (this.closing) return;
    const { feed } = this;
    if (feed.streamId !== this.stream) {
      this.stream = feed.streamId;
      this.cursor = 0;
      this.send({ kind: 'reset', position: this.position });
    }
    if (this.cursor < feed.oldest - 1) {
      // The window dropped changes it had not been sent (it was behind for that long).
      this.behind();
      return;
    }
    while (this.cursor < feed.durable) {
      if (this.ws.bufferedAmount >= this.settings.highWaterBytes) {
        this.waitingDrain = true;
        this.stalledSince ??= Date.now();
        this.checkLag();
        return;
      }
      const change = feed.get(this.cursor + 1)!;
      this.cursor++;
      if (this.types !== undefined && !this.types.has(change.type)) continue;
      this.send(changeMessage(feed, change));
    }
    if (this.ws.bufferedAmount < this.settings.highWaterBytes) this.stalledSince = undefined;
  }

  /**
   * A socket full for a while (not the moment a reader catching up fills it), and too far
   * behind, or full for too long: tell it, and let it reconnect.
   */
  checkLag(): void {
    if (this.closing || this.stalledSince === undefined) return;
    const stalled = Date.now() - this.stalledSince;
    const lag = this.feed.latest - this.cursor;
    if (
      stalled > this.settings.stallMs ||
      (lag > this.settings.lagLimit && stalled > Math.min(STALL_GRACE_MS, this.settings.stallMs))
    ) {
      this.behind();
    }
  }

  behind(): void {
    this.send({
      kind: 'behind',
      position: this.position,
      message: `This reader fell behind (its buffer was full ${this.feed.latest - this.cursor} changes behind the newest): reconnect with after=${this.position} to read on from there.`,
    });
    this.close(CLOSE_BEHIND, 'fell behind');
  }

  /** Close, and drop the socket soon whatever the reader does (its buffer goes with it). */
  close(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  heartbeat(): void {
    if (this.closing) return;
    if (!this.alive) {
      this.closing = true;
      this.ws.terminate();
      return;
    }
    this.alive = false;
    this.ws.ping();
    if (this.ws.bufferedAmount < this.settings.highWaterBytes) {
      this.send({ kind: 'heartbeat', position: this.position });
    }
    this.checkLag();
  }
}

export class RealtimeStream {
  private readonly wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    // Readers send nothing that matters; a big frame is refused.
    maxPayload: 4096,
  });
  private readonly sessions = new Set<Session>();
  private readonly feed: ChangeFeed;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private nextId = 1;

  constructor(
    private readonly store: Store,
    readonly settings: RealtimeSettings,
  ) {
    this.feed = changesOf(store);
    this.feed.settings.windowSize = settings.windowSize;
  }

  /** Start hearing the feed (the sandbox listens). */
  start(): void {
    this.unsubscribe = this.feed.onChanges(() => {
      for (const session of this.sessions) session.pump();
    });
    this.timer = setInterval(() => {
      for (const session of this.sessions) session.heartbeat();
    }, this.settings.heartbeatMs);
    this.timer.unref();
  }

  /** Close every reader (the sandbox stops: 1001, going away). */
  stop(): void {
    clearInterval(this.timer);
    this.unsubscribe?.();
    for (const session of this.sessions) session.close(1001, 'the sandbox is stopping');
  }

  /** The state of each reader, for `GET /__sandbox/realtime`. */
  status() {
    const { feed } = this;
    return {
      stream: feed.streamId,
      latest: feed.position(feed.latest),
      oldest: feed.position(feed.oldest - 1),
      window: this.settings.windowSize,
      readers: [...this.sessions].map((s) => ({
        id: s.id,
        position: s.position,
        lag: feed.latest - s.cursor,
        buffered_bytes: s.buffered,
        state: s.closing ? 'closing' : 'open',
        stalled_ms: s.stalledSince === undefined ? 0 : Date.now() - s.stalledSince,
      })),
    };
  }

  /** A request to open the stream: checked, then upgraded. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, ctx: UpgradeContext): void {
    let types: Set<string> | undefined;
    let after: Position | undefined;
    let afterText: string | undefined;
    try {
      types = parseTypes(one(ctx, 'types'));
      afterText = one(ctx, 'after');
      if (afterText !== undefined) {
        after = parsePosition(afterText);
        if (after === undefined) {
          const message = `after must be a position the stream gave (like ${this.feed.position(0)}), not '${afterText}'.`;
          throw invalidRequest(`query.after: ${message}`, [
            { field: 'query.after', code: 'format', message },
          ]);
        }
      }
    } catch (err) {
      if (err instanceof SandboxError) {
        ctx.refuse(err);
        return;
      }
      throw err;
    }
    const verdict = ticketsOf(this.store).use(one(ctx, 'token'));
    if (verdict !== true) {
      ctx.refuse(new SandboxError(401, 'unauthorized', REFUSALS[verdict]));
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      ctx.upgraded();
      this.open(ws, types, after, afterText);
    });
  }

  private open(
    ws: WebSocket,
    types: Set<string> | undefined,
    after: Position | undefined,
    afterText: string | undefined,
  ): void {
    const { feed } = this;
    let start = feed.durable;
    let gap: { reason: string; message: string } | undefined;
    if (after !== undefined) {
      if (after.stream !== feed.streamId) {
        start = feed.oldest - 1;
        gap = {
          reason: 'other_stream',
          message: `The position ${afterText} is of another stream (the sandbox was reset, or it is another sandbox): the changes after it are not known here. Reading from the oldest change kept.`,
        };
      } else if (after.seq > feed.durable) {
        gap = {
          reason: 'ahead',
          message: `The position ${afterText} is ahead of the newest change (${feed.position(feed.durable)}): reading from the newest.`,
        };
      } else if (after.seq < feed.oldest - 1) {
        start = feed.oldest - 1;
        gap = {
          reason: 'too_old',
          message: `The changes after ${afterText} up to ${feed.position(start)} (${start - after.seq}) are no longer kept (the stream keeps the last ${this.settings.windowSize}): reading from the oldest change kept.`,
        };
      } else {
        start = after.seq;
      }
    }
    const session = new Session(this.nextId++, ws, feed, this.settings, types, start);
    this.sessions.add(session);
    ws.on('pong', () => {
      session.alive = true;
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      session.closing = true;
      this.sessions.delete(session);
    });
    session.send({
      kind: 'ready',
      position: feed.position(start),
      latest: feed.position(feed.durable),
      oldest: feed.position(feed.oldest - 1),
    });
    if (gap !== undefined) {
      session.send({ kind: 'gap', from: afterText, to: feed.position(start), ...gap });
    }
    session.pump();
  }
}

/** A query parameter given at most once. */
function one(ctx: UpgradeContext, name: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) {
    const message = `Query parameter ${name} must be given at most once.`;
    throw invalidRequest(message, [{ field: `query.${name}`, message, code: 'repeated' }]);
  }
  return value;
}

/** `types=deal,contact`: record types; undefined for every type. */
function parseTypes(text: string | undefined): Set<string> | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const types = text.split(',').map((t) => t.trim());
  const unknown = types.filter((t) => !isObjectType(t));
  if (unknown.length > 0) {
    const message = `types names record types (${OBJECT_TYPES.join(', ')}); ${unknown.map((t) => `'${t}'`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not one.`;
    throw invalidRequest(`query.types: ${message}`, [
      { field: 'query.types', code: 'enum', message },
    ]);
  }
  return new Set(types);
}

const streams = new WeakMap<Store, RealtimeStream>();

/** Make the realtime stream of `store`'s sandbox (once, when it is assembled). */
export function setUpStream(store: Store, settings: RealtimeSettings): RealtimeStream {
  const stream = new RealtimeStream(store, settings);
  streams.set(store, stream);
  return stream;
}

/** The realtime stream of `store`'s sandbox. */
export function streamOf(store: Store): RealtimeStream {
  const stream = streams.get(store);
  if (stream === undefined) throw new Error('The realtime stream was not set up for this store');
  return stream;
}
