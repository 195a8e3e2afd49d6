import { clientAddressKey } from "~/lib/client-address.server";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptAdminLogin, LOGIN_MAX_FAILURES, loginClientKeys } from "~/admin/login.server";
import { ensureAdminPassword, readAdminPasswordHash, verifyPassword } from "~/admin/password.server";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { appSettings, loginAttempts } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { createTestDatabase, testContext } from "../support/test-db";

const PASSWORD = "limits-admin-password";
let handle: DatabaseHandle;
/** A second "app instance": its own connection pool to the same PostgreSQL database, or the same PGlite. */
let second: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  await ensureAdminPassword(handle.db, { adminPassword: PASSWORD, isProduction: false });
  const url = handle.raw.pool?.options.connectionString;
  second = url ? await openDatabase({ databaseUrl: url }) : handle;
});
afterAll(async () => {
  if (second && second !== handle) await second.close();
  await handle?.close();
});

const fast = { minDurationMs: 0 };

async function failureRows(ip: string, agent: string) {
  const key = loginClientKeys(clientAddressKey(ip), agent, testContext(handle).config.sessionSecret).client;
  return handle.db
    .select()
    .from(loginAttempts)
    .where(and(eq(loginAttempts.clientKey, key), eq(loginAttempts.succeeded, false)));
}

describe("failed sign-in limit under a burst of parallel guesses", () => {
  it(`checks at most ${LOGIN_MAX_FAILURES} passwords from 20 parallel guesses spread over two instances`, async () => {
    const ip = "192.0.2.90";
    const clock = fixedClock("2025-09-10T10:00:00+02:00");
    const instances = [
      testContext(handle, { clientIp: ip, clock }),
      { ...testContext(second, { clientIp: ip, clock }), db: second.db, dbHandle: second },
    ];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attemptAdminLogin(instances[i % 2], `guess-${i}`, "burst-agent", fast)),
    );
    // Every checked guess leaves its failure row; refused ones leave none.
    expect((await failureRows(ip, "burst-agent")).length).toBeLessThanOrEqual(LOGIN_MAX_FAILURES);
    expect(results.filter((r) => r.status === "invalid").length).toBeLessThan(LOGIN_MAX_FAILURES);
    expect(results.filter((r) => r.status === "locked").length).toBeGreaterThanOrEqual(20 - LOGIN_MAX_FAILURES);
    // Locked: even the right password is refused, on either instance.
    expect((await attemptAdminLogin(instances[0], PASSWORD, "burst-agent", fast)).status).toBe("locked");
    expect((await attemptAdminLogin(instances[1], PASSWORD, "burst-agent", fast)).status).toBe("locked");
  });

  it("a refused attempt does not extend the lockout: after the window the client may sign in", async () => {
    const ip = "192.0.2.91";
    const clock = fixedClock("2025-09-10T10:00:00+02:00");
    const context = testContext(handle, { clientIp: ip, clock });
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) await attemptAdminLogin(context, `wrong-${i}`, "agent", fast);
    clock.set("2025-09-10T10:14:00+02:00");
    expect((await attemptAdminLogin(context, `wrong-late`, "agent", fast)).status).toBe("locked");
    expect((await failureRows(ip, "agent")).length).toBe(LOGIN_MAX_FAILURES);
    clock.set("2025-09-10T10:15:01+02:00");
    expect((await attemptAdminLogin(context, PASSWORD, "agent", fast)).status).toBe("success");
  });

  it("stores no IP address in the sign-in attempts", async () => {
    const ip = "198.51.100.77";
    await attemptAdminLogin(testContext(handle, { clientIp: ip }), "wrong", "agent", fast);
    const rows = await handle.db.select().from(loginAttempts);
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(ip);
    expect(JSON.stringify(rows)).not.toContain("198.51.100");
  });
});

describe("the admin password", () => {
  it("is generated on a first development start, returned once, and only its scrypt hash is stored", async () => {
    const fresh = await createTestDatabase({ seed: false });
    try {
      const first = await ensureAdminPassword(fresh.db, { isProduction: false });
      expect(first.generatedPassword).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      const stored = await readAdminPasswordHash(fresh.db);
      expect(stored).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
      expect(JSON.stringify(await fresh.db.select().from(appSettings))).not.toContain(first.generatedPassword);
      expect(await verifyPassword(first.generatedPassword!, stored!)).toBe(true);
      expect(await verifyPassword("something else", stored!)).toBe(false);
      // The second start keeps it and prints nothing.
      expect(await ensureAdminPassword(fresh.db, { isProduction: false })).toEqual({});
      expect(await readAdminPasswordHash(fresh.db)).toBe(stored);
    } finally {
      await fresh.close();
    }
  });

  it("is never generated in production, and ADMIN_PASSWORD replaces a stored one", async () => {
    const fresh = await createTestDatabase({ seed: false });
    try {
      await expect(ensureAdminPassword(fresh.db, { isProduction: true })).rejects.toThrow(/ADMIN_PASSWORD/);
      expect(await ensureAdminPassword(fresh.db, { adminPassword: "chosen-one", isProduction: true })).toEqual({});
      const stored = await readAdminPasswordHash(fresh.db);
      expect(stored).not.toContain("chosen-one");
      expect(await verifyPassword("chosen-one", stored!)).toBe(true);
      await ensureAdminPassword(fresh.db, { adminPassword: "changed-later", isProduction: true });
      expect(await verifyPassword("changed-later", (await readAdminPasswordHash(fresh.db))!)).toBe(true);
    } finally {
      await fresh.close();
    }
  });
});
