/**
 * The providers linked to a signed-in diner's account (「ログイン連携」 on the account page): which
 * ones, and unlinking one. Linking another is the sign-in flow itself started while signed in
 * (src/server/oidc.ts links a new provider account to the signed-in one).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from './db/types';
import { oidcIdentities, users } from './db/schema';
import { configuredProviders, isOidcProvider, OidcRefusal } from './oidc';
import type { OidcProvider } from '../lib/contract/paths';

export interface LinkedProvider {
  provider: OidcProvider;
  linkedAt: Date;
}

export interface SignInWays {
  /** Linked providers, oldest first (one provider account per provider at most is shown). */
  linked: LinkedProvider[];
  /** Configured providers not linked yet: the account page offers to link them. */
  linkable: OidcProvider[];
  /** False for an account a provider made that has never set a password. */
  hasPassword: boolean;
}

export async function signInWays(db: Db, userId: number): Promise<SignInWays> {
  const [rows, [user]] = await Promise.all([
    db
      .select({ provider: oidcIdentities.provider, linkedAt: oidcIdentities.createdAt })
      .from(oidcIdentities)
      .where(eq(oidcIdentities.userId, userId))
      .orderBy(asc(oidcIdentities.createdAt)),
    db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId)),
  ]);
  const linked: LinkedProvider[] = [];
  for (const row of rows)
    if (isOidcProvider(row.provider) && !linked.some((l) => l.provider === row.provider)) linked.push({ provider: row.provider, linkedAt: row.linkedAt });
  return { linked, linkable: configuredProviders().filter((p) => !linked.some((l) => l.provider === p)), hasPassword: Boolean(user?.hash) };
}

/**
 * Unlinks a provider from the account. Refused when it is the account's last way in: no password
 * and no other provider linked (a provider that is no longer configured still counts as unlinkable,
 * not as a way in). The user's row is locked so two unlinks at once cannot both pass the check.
 */
export async function unlinkProvider(db: Db, userId: number, provider: OidcProvider): Promise<void> {
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw new OidcRefusal(400, 'account.signInWays.notLinked');
    const rows = await tx.select({ provider: oidcIdentities.provider }).from(oidcIdentities).where(eq(oidcIdentities.userId, userId));
    if (!rows.some((r) => r.provider === provider)) throw new OidcRefusal(400, 'account.signInWays.notLinked');
    const configured = configuredProviders() as string[];
    const otherWays = rows.filter((r) => r.provider !== provider && configured.includes(r.provider)).length;
    if (!user.hash && otherWays === 0) throw new OidcRefusal(409, 'account.signInWays.lastWay');
    await tx.delete(oidcIdentities).where(and(eq(oidcIdentities.userId, userId), eq(oidcIdentities.provider, provider)));
  });
}
