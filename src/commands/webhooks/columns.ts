// The columns webhooks are shown with.
import type { Webhook } from '../../api/webhooks.ts';
import type { Column } from '../../output/format.ts';

/** A webhook as the verbs show it: the API's fields, and what a verb adds. */
export type ShownWebhook = Webhook & {
  verification?: { status: string; delivery_id?: string } | undefined;
  /** How the handshake went, when the verb waited for it. */
  handshake?: object | undefined;
};

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const yesNo = (v: unknown) => (v === true ? 'yes' : v === false ? 'no' : '');

/** Every field of a webhook; the listing shows a few by default. */
export const webhookColumns: Column<Webhook>[] = [
  { key: 'id', header: 'ID', id: true },
  { key: 'name', header: 'NAME' },
  { key: 'url', header: 'URL' },
  { key: 'enabled', header: 'ENABLED', text: yesNo },
  { key: 'verified', header: 'VERIFIED', text: yesNo },
  { key: 'verified_at', header: 'VERIFIED AT', text },
  { key: 'description', header: 'DESCRIPTION', text },
  { key: 'verification_token', header: 'VERIFICATION TOKEN', text },
  { key: 'created_at', header: 'CREATED', text },
  { key: 'updated_at', header: 'UPDATED', text },
];

const LIST_DEFAULTS = new Set(['id', 'name', 'url', 'enabled', 'verified']);

export const webhookListColumns: Column<Webhook>[] = webhookColumns.map((c) => ({
  ...c,
  default: LIST_DEFAULTS.has(c.key),
}));
