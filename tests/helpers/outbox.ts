/**
 * The mail outbox of a server running on PostgreSQL, read as the mail carries it: for browser
 * specs that follow a mailed link (the outbox of the shared server's embedded database is the
 * server's alone, so these specs run their own server on PostgreSQL).
 */
import { expect, test } from '@playwright/test';
import crypto from 'node:crypto';
import postgres from 'postgres';
import { createDatabase, startPostgres, type PgCluster } from './postgres';
import { spawnServer, type SpawnedServer } from './server';

/**
 * For one spec file: its own server on a fresh PostgreSQL database, started before its tests and
 * stopped after them. The fields are set before the first test runs; the store host is the default
 * one, store.localhost on the server's port.
 */
export function serverOnPostgres(env: Record<string, string> = {}) {
  const s = { databaseUrl: '', storeHost: '' };
  let cluster: PgCluster | undefined;
  let server: SpawnedServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    cluster = await startPostgres();
    s.databaseUrl = await createDatabase(cluster.url, `e2e_${crypto.randomBytes(4).toString('hex')}`);
    server = await spawnServer({ DATABASE_URL: s.databaseUrl, SUGU_LOG_REQUESTS: '0', SMTP_URL: '', ...env });
    s.storeHost = server.base.replace('127.0.0.1', 'store.localhost');
  });
  test.afterAll(async () => {
    await server?.stop();
    await cluster?.stop();
  });
  return s;
}

/** The store-host sign-up link of the latest invitation mailed to `email` (queued with its write: polled until there). */
export async function invitationLinkFromOutbox(databaseUrl: string, email: string): Promise<string> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          const rows = await sql<{ body_text: string }[]>`
            select body_text from mail_outbox where to_address = ${email} and kind = 'staff_invitation' order by id desc limit 1`;
          link = /https?:\/\/\S+\/store-signup\?token=[\w-]+/.exec(rows[0]?.body_text ?? '')?.[0];
          return Boolean(link);
        },
        { message: `an invitation mail for ${email}` },
      )
      .toBe(true);
    return link!;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
