/**
 * A request's id: the one a proxy or client sent in `X-Request-Id` (so one id follows the request
 * through the load balancer, this server's log and the answer), else a new one. What is taken from
 * the header is a short token of URL-safe characters: it is echoed in a response header and written
 * into every log line of the request, so nothing else is.
 */
import { randomUUID } from 'node:crypto';
import { REQUEST_ID_MAX } from '../../lib/contract/limits.ts';

const TOKEN = new RegExp(`^[A-Za-z0-9._~:+=/-]{1,${REQUEST_ID_MAX}}$`);

/**
 * The id a request was sent with, when it is a safe token; else undefined.
 * @example sentRequestId('lb-7f3a') // 'lb-7f3a'
 * @example sentRequestId('a b\n') // undefined
 */
export function sentRequestId(header: string | null | undefined): string | undefined {
  return header && TOKEN.test(header) ? header : undefined;
}

/** The id a request is handled and answered under: the one it was sent with, or a new UUID. */
export function requestIdOf(header: string | null | undefined): string {
  return sentRequestId(header) ?? randomUUID();
}
