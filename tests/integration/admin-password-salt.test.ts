import { eq } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_HASH_KEY,
  ADMIN_SALT_FILE,
  ensureAdminPassword,
  startAdminPasswordCheck,
  verifyPassword,
} from "~/admin/password.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminSessions, appSettings } from "~/db/schema";
import { createTestDatabase } from "../support/test-db";

// Decision 090: ADMIN_PASSWORD's scrypt starts before the database opens, with the salt the data
// folder remembers. The head start must never change what a start decides: a changed password
// still replaces the hash and ends every session, and a tampered file is ignored.
let handle: DatabaseHandle;
let dataDir: string;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "honey-salt-"));
});
afterAll(async () => {
  await handle?.close();
});

const storedHash = async () =>
  (await handle.db.select().from(appSettings).where(eq(appSettings.key, ADMIN_HASH_KEY)))[0]?.value;
const start = (password: string) =>
  ensureAdminPassword(handle.db, {
    adminPassword: password,
    isProduction: false,
    check: startAdminPasswordCheck(password, dataDir),
  });

describe("the remembered admin-password salt", () => {
  it("holds the stored hash's salt and parameters, never the key", async () => {
    await start("first-password");
    const hash = (await storedHash())!;
    const file = fs.readFileSync(path.join(dataDir, ADMIN_SALT_FILE), "utf8").trim();
    expect(hash.startsWith(`${file}$`)).toBe(true);
    expect(hash.slice(file.length + 1).length).toBeGreaterThan(20);
    expect(file).not.toContain(hash.slice(file.length + 1));
  });

  it("keeps the hash and the sessions when the password is the same", async () => {
    const before = await storedHash();
    await handle.db.insert(adminSessions).values({ idHash: "kept", expiresAt: new Date(Date.now() + 3_600_000) });
    await start("first-password");
    expect(await storedHash()).toBe(before);
    expect(await handle.db.select().from(adminSessions)).toHaveLength(1);
  });

  it("replaces the hash and ends every session when the password changed", async () => {
    await start("second-password");
    const hash = (await storedHash())!;
    expect(await verifyPassword("second-password", hash)).toBe(true);
    expect(await verifyPassword("first-password", hash)).toBe(false);
    expect(await handle.db.select().from(adminSessions)).toHaveLength(0);
  });

  it("ignores a tampered or foreign file and still decides by the stored hash", async () => {
    for (const content of ["scrypt$2$1$1$AAAA", "not a salt", "scrypt$131072$8$1$c2FsdA$extra", ""]) {
      const before = await storedHash();
      fs.writeFileSync(path.join(dataDir, ADMIN_SALT_FILE), content);
      await start("second-password");
      expect(await storedHash()).toBe(before);
      await start("wrong-then-right");
      expect(await verifyPassword("wrong-then-right", (await storedHash())!)).toBe(true);
      await start("second-password");
    }
  });
});
