/**
 * Web Push (RFC 8030, VAPID RFC 8292): what a browser sends when its diner says yes to
 * notifications, what the server answers, and the notification every push carries. A payload holds
 * a store's name and a time, never a name, an address or a booking's code.
 */
import * as z from 'zod/mini';
import { noControlCharacter } from './fields';

/** Push services' endpoints are a few hundred characters; anything near this is not one. */
export const PUSH_ENDPOINT_MAX = 2048;
/** A device's label as the account page shows it (its browser and system). */
export const PUSH_LABEL_MAX = 100;
/** Devices one owner may have subscribed at once; the oldest goes when one more says yes. */
export const PUSH_SUBSCRIPTIONS_MAX = 10;

const base64url = (length: number) => z.string().check(z.regex(new RegExp(`^[A-Za-z0-9_-]{${length}}={0,2}$`), { message: 'push.error.keys' }));

/** `POST /api/push/subscriptions`: the browser's PushSubscription.toJSON(), plus an optional label. */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string()
    .check(z.minLength(1, { message: 'push.error.endpoint' }), z.maxLength(PUSH_ENDPOINT_MAX, { message: 'push.error.endpoint' }), noControlCharacter),
  // An uncompressed P-256 point (65 bytes) and a 16-byte secret, base64url.
  keys: z.object({ p256dh: base64url(87), auth: base64url(22) }),
  label: z.optional(z.string().check(z.maxLength(PUSH_LABEL_MAX), noControlCharacter)),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/** `GET /api/push/key`: the server's VAPID public key (applicationServerKey, base64url). */
export const pushKeySchema = z.object({ public_key: z.string() });

export const pushSubscriptionJsonSchema = z.object({ id: z.int(), label: z.string(), created_at: z.string() });
export const pushSubscriptionListSchema = z.object({ items: z.array(pushSubscriptionJsonSchema) });
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionJsonSchema>;

/** What the service worker shows: the notification's title and body, the page a tap opens, and a tag (a newer one replaces it). */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

export const pushPaths = {
  key: '/api/push/key',
  subscriptions: '/api/push/subscriptions',
  subscription: (id: number) => `/api/push/subscriptions/${id}`,
  /** The page shown when a navigation fails offline (cached by the service worker). */
  offline: '/offline',
  worker: '/sw.js',
};
