// The shapes the webhooks resource keeps (its slice of the store, and so the data file) and
// the wire forms it answers with (api.md, "Webhook" and "Webhook delivery").

/** A webhook endpoint as stored: the wire form plus its signing secret. */
export interface StoredWebhook {
  id: string;
  team_id: string;
  name: string;
  url: string;
  description: string | null;
  enabled: boolean;
  verified: boolean;
  verified_at: string | null;
  verification_token: string;
  /** whsec_…: answered once, on create; signs every delivery. */
  secret: string;
  created_at: string;
  updated_at: string;
  /** The handshake delivery whose outcome decides `verified`; null when none is running. */
  handshake_id: string | null;
}

/** The wire form of a webhook: never the secret. */
export type WebhookView = Omit<StoredWebhook, 'secret' | 'handshake_id'>;

export type DeliveryType = 'delivery' | 'verification';
/** `pending` until an attempt has ended; then the latest attempt's outcome (api.md). */
export type DeliveryStatus = 'pending' | 'success' | 'failed';

export interface StoredAttempt {
  /** 1-based. */
  attempt: number;
  /** When the attempt started (sandbox clock). */
  created_at: string;
  status: 'success' | 'failed';
  /** null when no answer came (transport error, timeout, refused address). */
  status_code: number | null;
  /** Why it failed; null on success. */
  error: string | null;
  response_body: string | null;
  response_body_truncated: boolean;
  duration_ms: number;
}

export interface StoredDelivery {
  delivery_id: string;
  webhook_id: string;
  team_id: string;
  type: DeliveryType;
  event: string;
  url: string;
  status: DeliveryStatus;
  status_code: number | null;
  attempts: number;
  created_at: string;
  updated_at: string;
  /** When the next attempt is due (ISO, sandbox clock); null when none will be made. */
  next_attempt_at: string | null;
  /** True when it failed for good: no attempt is left, or its webhook stopped receiving. */
  dead_lettered: boolean;
  /**
   * The request body (deliveries; null for handshakes): whole while an attempt may follow,
   * cut at REQUEST_BODY_LIMIT bytes once none will.
   */
  body: string | null;
  body_truncated: boolean;
  /** The handshake's challenge (verification only). */
  challenge: string | null;
  history: StoredAttempt[];
  /** Creation order, for newest-first listings and their cursors. */
  seq: number;
  /** Why no attempt was made (too many deliveries waiting: MAX_UNSENT_DELIVERIES). */
  not_sent?: string;
}

/** A delivery in listings (api.md, "Webhook delivery"), with the sandbox's two additions. */
export interface DeliveryView {
  delivery_id: string;
  webhook_id: string;
  team_id: string;
  type: DeliveryType;
  status: DeliveryStatus;
  status_code: number | null;
  attempts: number;
  event: string;
  url: string;
  created_at: string;
  updated_at: string;
  next_attempt_at: string | null;
  dead_lettered: boolean;
  not_sent?: string;
}

export interface AttemptView extends StoredAttempt {
  /** The request body (deliveries; null for handshakes), cut at REQUEST_BODY_LIMIT bytes. */
  request_body: string | null;
  request_body_truncated: boolean;
}

export interface DeliveryDetailView extends DeliveryView {
  attempt_history: AttemptView[];
}
