// A change as `ws records watch` prints it: the stream's change message without its `kind`
// (one NDJSON line each), or a change found by polling (position and source null, and with
// a filter `entered` / `left` for a record that started or stopped matching it, which the
// list cannot tell apart from a creation or a deletion).
import type { ChangeMessage } from '../api/realtime.ts';

export interface WatchEvent {
  /** Where it stands in the stream (pass it to --from to read on after it); null when polled. */
  position: string | null;
  at: string;
  type: string;
  id: string;
  change: 'created' | 'updated' | 'deleted' | 'restored' | 'entered' | 'left';
  /** The API operation that wrote it; null when polled. */
  source: string | null;
  changes: Record<string, { from: unknown; to: unknown }>;
  list_changes?: Record<string, Record<string, { from: unknown; to: unknown }>>;
  record: { id: string; default: Record<string, unknown>; list?: Record<string, unknown> };
}

/** The event of a stream message. */
export function eventOf(message: ChangeMessage): WatchEvent {
  const { kind: _kind, ...event } = message;
  return event as WatchEvent;
}
