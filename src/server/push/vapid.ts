/**
 * The VAPID key pair (RFC 8292) that signs every push: from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY,
 * or generated once into DATA_DIR/vapid.json and read from there afterwards, so that browsers'
 * subscriptions (made with the public key) keep working across restarts.
 */
import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { config } from '../config';
import { log } from '../log';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

let cached: VapidKeys | undefined;

export function vapidKeys(): VapidKeys {
  if (cached) return cached;
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, DATA_DIR } = config();
  if (VAPID_PUBLIC_KEY || VAPID_PRIVATE_KEY) {
    if (!VAPID_PUBLIC_KEY || !VAPID_PRIVATE_KEY) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all');
    cached = { publicKey: VAPID_PUBLIC_KEY, privateKey: VAPID_PRIVATE_KEY };
    return cached;
  }
  const file = path.join(DATA_DIR, 'vapid.json');
  try {
    cached = JSON.parse(fs.readFileSync(file, 'utf8')) as VapidKeys;
  } catch {
    const keys = webpush.generateVAPIDKeys();
    fs.mkdirSync(DATA_DIR, { recursive: true });
    try {
      // `wx`: of two processes starting at once, the second reads the first one's pair.
      fs.writeFileSync(file, JSON.stringify(keys), { flag: 'wx', mode: 0o600 });
      cached = keys;
      log('info', 'vapid_keys_generated', { file });
    } catch {
      cached = JSON.parse(fs.readFileSync(file, 'utf8')) as VapidKeys;
    }
  }
  return cached!;
}
