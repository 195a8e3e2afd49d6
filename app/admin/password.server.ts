import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
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

/** The file in the data folder that remembers the stored hash's salt between starts. */
export const ADMIN_SALT_FILE = "admin-password-salt";

/**
 * ADMIN_PASSWORD's scrypt key, being derived with the salt of the hash stored at the last start.
 * Checking the variable against the stored hash is one scrypt (100-600 ms of a core); started before
 * the database opens, it runs on libuv's pool meanwhile instead of after (decision 090). The file
 * holds only "scrypt$N$r$p$salt": no key, no hash, nothing derived from the password.
 */
export interface AdminPasswordCheck {
  saltFile: string;
  /** "scrypt$N$r$p$salt" the key is being derived with, when the file had a usable one. */
  prefix?: string;
  key?: Promise<Buffer>;
}

/** Starts deriving `password`'s key with the remembered salt (pass the same password to ensureAdminPassword). */
export function startAdminPasswordCheck(password: string, dataDir: string): AdminPasswordCheck {
  const saltFile = path.join(dataDir, ADMIN_SALT_FILE);
  let prefix: string;
  try {
    prefix = fs.readFileSync(saltFile, "utf8").trim();
  } catch {
    return { saltFile };
  }
  const [scheme, n, r, p, salt, ...rest] = prefix.split("$");
  // Only today's parameters: an edited file must not make a start do more work than the check itself.
  const current = scheme === "scrypt" && n === String(PARAMS.N) && r === String(PARAMS.r) && p === String(PARAMS.p);
  if (!current || !salt || rest.length) return { saltFile };
  const key = scrypt(password.normalize("NFKC"), Buffer.from(salt, "base64url"), KEY_LENGTH, PARAMS);
  // Awaited only when the stored hash has this salt; a failure then surfaces there.
  key.catch(() => {});
  return { saltFile, prefix, key };
}

/** True or false when `check` was derived with `stored`'s salt and parameters; undefined when it cannot tell. */
async function matchesByCheck(stored: string, check: AdminPasswordCheck | undefined): Promise<boolean | undefined> {
  if (!check?.prefix || !check.key || !stored.startsWith(`${check.prefix}$`)) return undefined;
  const keyText = stored.slice(check.prefix.length + 1);
  const expected = Buffer.from(keyText, "base64url");
  if (keyText.includes("$") || expected.length !== KEY_LENGTH) return undefined;
  return timingSafeEqual(await check.key, expected);
}

/** Writes the stored hash's salt for the next start (best effort: a read-only or missing folder only loses the head start). */
function rememberSalt(check: AdminPasswordCheck, stored: string): void {
  const prefix = stored.slice(0, stored.lastIndexOf("$"));
  if (prefix === check.prefix) return;
  try {
    if (!fs.existsSync(path.dirname(check.saltFile))) return;
    fs.writeFileSync(check.saltFile, `${prefix}\n`, { mode: 0o600 });
  } catch {
    // Nothing is lost but time at the next start.
  }
}

/**
 * Makes sure there is an admin password. ADMIN_PASSWORD from the environment always wins (its
 * hash is stored so a change of the variable takes effect on restart). Without it, an existing
 * stored hash is kept; on a first start outside production a password is generated, its hash
 * stored, and the password returned once so it can be printed.
 */
export async function ensureAdminPassword(
  db: Database,
  options: {
    adminPassword?: string;
    isProduction: boolean;
    /** The stored hash when the caller has read it already (otherwise, or when none was, it is read here). */
    stored?: string;
    /** A check started with the same ADMIN_PASSWORD before the database was open (startAdminPasswordCheck). */
    check?: AdminPasswordCheck;
  },
): Promise<{ generatedPassword?: string }> {
  const stored = options.stored ?? (await readAdminPasswordHash(db));
  if (options.adminPassword) {
    let current = stored;
    const matches = stored
      ? ((await matchesByCheck(stored, options.check)) ?? (await verifyPassword(options.adminPassword, stored)))
      : false;
    if (!matches) {
      current = await hashPassword(options.adminPassword);
      await storeHash(db, current);
    }
    if (options.check) rememberSalt(options.check, current!);
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
