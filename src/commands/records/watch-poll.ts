// `ws records watch --poll`: changes found by reading the records again and again, for a
// service without the realtime stream. Each look reads every record watched (the list
// endpoint, or the query endpoint with --where), through the client's rate limiter, and
// compares it with the look before: a record that appeared was created (with --where:
// `entered`, it may only have started to match), one whose values differ was updated, one
// that is gone was deleted (`left`). The first look is where changes start. The last look
// is kept in memory: one copy of the records watched.

import { isDeepStrictEqual } from 'node:util';
import type { ApiClient } from '../../api/client.ts';
import type { WatchEvent } from '../../watch/event.ts';
import { type ReadPlan, readPages } from './read.ts';
import type { Row } from './shared.ts';

type Values = Record<string, unknown>;

export class RecordsPoller {
  private last: Map<string, { type: string; row: Row }> | undefined;
  /** Requests made so far. */
  requests = 0;
  /** Records seen by the last look. */
  watched = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly plans: readonly ReadPlan[],
    private readonly filtered: boolean,
    private readonly signal: AbortSignal,
  ) {}

  /** The changes since the last look (none on the first), in the order the list gives. */
  async poll(now: () => Date): Promise<WatchEvent[]> {
    const seen = new Map<string, { type: string; row: Row }>();
    for (const plan of this.plans) {
      const state = { hasMore: false, requests: 0 };
      for await (const page of readPages(
        this.client,
        plan,
        { all: true, signal: this.signal },
        state,
      )) {
        for (const row of page.rows) seen.set(`${plan.type}/${row.id}`, { type: plan.type, row });
      }
      this.requests += state.requests;
    }
    const before = this.last;
    this.last = seen;
    this.watched = seen.size;
    if (before === undefined) return [];
    const at = now().toISOString();
    const events: WatchEvent[] = [];
    const event = (
      type: string,
      row: Row,
      change: WatchEvent['change'],
      changes: WatchEvent['changes'],
    ): WatchEvent => ({
      position: null,
      at,
      type,
      id: row.id,
      change,
      source: null,
      changes,
      record: { id: row.id, default: row.properties },
    });
    for (const [key, { type, row }] of seen) {
      const was = before.get(key);
      if (was === undefined) {
        events.push(
          event(type, row, this.filtered ? 'entered' : 'created', diff({}, row.properties)),
        );
      } else {
        const changes = diff(was.row.properties, row.properties);
        if (Object.keys(changes).length > 0) events.push(event(type, row, 'updated', changes));
      }
    }
    for (const [key, { type, row }] of before) {
      if (!seen.has(key)) events.push(event(type, row, this.filtered ? 'left' : 'deleted', {}));
    }
    return events;
  }
}

function diff(before: Values, after: Values): WatchEvent['changes'] {
  const out: WatchEvent['changes'] = {};
  for (const slug of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = before[slug] ?? null;
    const to = after[slug] ?? null;
    if (!isDeepStrictEqual(from, to)) out[slug] = { from, to };
  }
  return out;
}
