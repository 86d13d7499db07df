// Realtime tickets: short-lived, single-use tokens that open one WebSocket stream
// (`POST /v2/realtime/ticket`, then the stream's `token` query parameter). A WebSocket
// cannot carry the x-api-key header from a browser, so the key is checked when the ticket
// is made and the ticket stands for it. Tickets live in memory only: a restarted sandbox has
// none (a client asks for a new one when it reconnects). At most MAX_TICKETS wait at once.

import { randomBytes } from 'node:crypto';
import { perStore, type Store } from '../../store.ts';
import { MAX_TICKETS } from './settings.ts';

interface Ticket {
  expiresMs: number;
}

/** Why a ticket does not open a stream. */
export type TicketRefusal = 'missing' | 'unknown' | 'expired';

export class TicketBook {
  /** Tickets by token, oldest first (a Map keeps insertion order). */
  private readonly tickets = new Map<string, Ticket>();

  constructor(private readonly store: Store) {}

  /** A new ticket valid for `ttlSeconds` of sandbox time. */
  issue(ttlSeconds: number): string {
    this.sweep();
    while (this.tickets.size >= MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value!);
    const token = `rt_${randomBytes(16).toString('hex')}`;
    this.tickets.set(token, { expiresMs: this.store.clock.nowMs() + ttlSeconds * 1000 });
    return token;
  }

  /** Use a ticket: true once for a valid one (it is gone after), else why not. */
  use(token: string | undefined): true | TicketRefusal {
    if (token === undefined || token === '') return 'missing';
    const ticket = this.tickets.get(token);
    if (ticket === undefined) return 'unknown';
    this.tickets.delete(token);
    return ticket.expiresMs > this.store.clock.nowMs() ? true : 'expired';
  }

  /** Whether the ticket was given out here and not used yet (expired or not). */
  has(token: string): boolean {
    return this.tickets.has(token);
  }

  clear(): void {
    this.tickets.clear();
  }

  private sweep(): void {
    const now = this.store.clock.nowMs();
    for (const [token, ticket] of this.tickets)
      if (ticket.expiresMs <= now) this.tickets.delete(token);
  }
}

/** The tickets of `store`'s sandbox. */
export const ticketsOf = perStore((store) => new TicketBook(store));
