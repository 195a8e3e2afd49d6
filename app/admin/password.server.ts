import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { adminSessions, appSettings } from "~/db/schema";

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// OWASP's scrypt minimum (N=2^17, r=8, p=1): about 128 MiB and ~100-300 ms per check here.
const PARAMS = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };
const KEY_LENGTH = 32;
export const ADMIN_HASH_KEY = "admin_password_hash";

/** "scrypt$N$r$p$salt$hash", all base64url; self-describing so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, PARAMS);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split("$");
  if (scheme !== "scrypt" || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, "base64url");
  const actual = await scrypt(password.normalize("NFKC"), Buffer.from(saltText, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export async function readAdminPasswordHash(db: Database): Promise<string | undefined> {
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, ADMIN_HASH_KEY));
  return row?.value;
}

/**
 * Makes sure there is an admin password. ADMIN_PASSWORD from the environment always wins (its
 * hash is stored so a change of the variable takes effect on restart). Without it, an existing
 * stored hash is kept; on a first start outside production a password is generated, its hash
 * stored, and the password returned once so it can be printed.
 */
export async function ensureAdminPassword(
  db: Database,
  options: { adminPassword?: string; isProduction: boolean },
): Promise<{ generatedPassword?: string }> {
  const stored = await readAdminPasswordHash(db);
  if (options.adminPassword) {
    if (stored && (await verifyPassword(options.adminPassword, stored))) return {};
    await storeHash(db, await hashPassword(options.adminPassword));
    return {};
  }
  if (stored) return {};
  if (options.isProduction) {
    throw new Error("ADMIN_PASSWORD: is required when NODE_ENV=production and no admin password is stored yet");
  }
  const generatedPassword = randomBytes(12).toString("base64url");
  await storeHash(db, await hashPassword(generatedPassword));
  return { generatedPassword };
}

/**
 * Stores a new password hash and ends every session in the same transaction: whoever signed in with
 * the old password (perhaps the reason it was changed) is signed out on every instance.
 */
async function storeHash(db: Database, hash: string) {
  await db.transaction(async (tx) => {
    await tx
      .insert(appSettings)
      .values({ key: ADMIN_HASH_KEY, value: hash })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: hash, updatedAt: new Date() } });
    await tx.delete(adminSessions);
  });
}
