import { api, json } from '#src/server/http/api.ts';
import { vapidKeys } from '#src/server/push/vapid.ts';

/** The VAPID public key a browser subscribes with (applicationServerKey). */
export const GET = api(() => json({ public_key: vapidKeys().publicKey }, { headers: { 'cache-control': 'public, max-age=3600' } }));
