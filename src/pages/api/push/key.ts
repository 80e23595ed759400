import { api, json } from '../../../server/http/api';
import { vapidKeys } from '../../../server/push/vapid';

/** The VAPID public key a browser subscribes with (applicationServerKey). */
export const GET = api(() => json({ public_key: vapidKeys().publicKey }, { headers: { 'cache-control': 'public, max-age=3600' } }));
