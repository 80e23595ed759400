/**
 * Password hashing: Argon2id at the OWASP minimum (m = 19 MiB, t = 2, p = 1).
 * Hashes are PHC strings ($argon2id$v=19$m=19456,t=2,p=1$…), so the parameters can be
 * raised later and old hashes still verify (see needsRehash).
 */
import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (an ambient const enum, which verbatimModuleSyntax cannot import). */
const ARGON2ID = 2;

export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} as const;

export async function hashPassword(password: string): Promise<string> {
  return hash(password.normalize('NFC'), ARGON2_OPTIONS);
}

/** False for a wrong password, a malformed hash or none (an account without a password); never throws for those. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash?.startsWith('$argon2')) return false;
  try {
    return await verify(passwordHash, password.normalize('NFC'));
  } catch {
    return false;
  }
}

/** True when a stored hash uses weaker parameters than ARGON2_OPTIONS. */
export function needsRehash(passwordHash: string): boolean {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(passwordHash);
  if (!m) return true;
  return Number(m[1]) < ARGON2_OPTIONS.memoryCost || Number(m[2]) < ARGON2_OPTIONS.timeCost || Number(m[3]) < ARGON2_OPTIONS.parallelism;
}
