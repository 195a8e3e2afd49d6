import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { appSettings } from "~/db/schema";
import {
  currentSiteSettings,
  getSiteSettings,
  saveSiteSettings,
  SITE_SETTINGS_FRESH_MS,
} from "~/settings/site-settings.server";
import { createTestDatabase } from "../support/test-db";

// The shop's settings are read on every page, contact message and payment; each instance keeps them
// for SITE_SETTINGS_FRESH_MS (issue 22, decision 093). These pin what that may and may not change.
const OWNER = "owner@example.test";
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(() => handle?.close());
afterEach(() => vi.restoreAllMocks());

/** Moves the clock the cache reads (performance.now), never by sleeping. */
function clockAt(ms: number) {
  vi.spyOn(performance, "now").mockReturnValue(ms);
}

describe("currentSiteSettings", () => {
  it("answers as getSiteSettings does, and concurrent callers share one read", async () => {
    clockAt(1_000_000);
    const select = vi.spyOn(handle.db, "select");
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => currentSiteSettings(handle.db, OWNER)));
    expect(a).toEqual(await getSiteSettings(handle.db, OWNER));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // One read for the three, and one more for the getSiteSettings above.
    expect(select.mock.calls.length).toBe(2);
  });

  it("gives each caller its own copy", async () => {
    clockAt(2_000_000);
    const first = await currentSiteSettings(handle.db, OWNER);
    first.phone = "changed by a caller";
    expect((await currentSiteSettings(handle.db, OWNER)).phone).not.toBe("changed by a caller");
  });

  it("shows the owner's save on this instance at once", async () => {
    clockAt(3_000_000);
    const before = await currentSiteSettings(handle.db, OWNER);
    await saveSiteSettings(handle.db, { ...before, phone: "021 555 0101" }, new Date("2026-11-25T10:00:00Z"), OWNER);
    expect((await currentSiteSettings(handle.db, OWNER)).phone).toBe("021 555 0101");
  });

  it("sees a change made elsewhere (another instance) once its read is SITE_SETTINGS_FRESH_MS old, not before", async () => {
    clockAt(4_000_000);
    await currentSiteSettings(handle.db, OWNER);
    // As another instance's save would: straight to the table, this instance not told.
    await handle.db
      .insert(appSettings)
      .values({ key: "site.location", value: "Woodstock, Cape Town" })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: "Woodstock, Cape Town" } });
    clockAt(4_000_000 + SITE_SETTINGS_FRESH_MS - 1);
    expect((await currentSiteSettings(handle.db, OWNER)).location).not.toBe("Woodstock, Cape Town");
    clockAt(4_000_000 + SITE_SETTINGS_FRESH_MS);
    expect((await currentSiteSettings(handle.db, OWNER)).location).toBe("Woodstock, Cape Town");
  });

  it("does not remember a failed read: the next caller asks the database again", async () => {
    clockAt(5_000_000);
    const select = vi.spyOn(handle.db, "select").mockImplementationOnce(() => {
      throw Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
    });
    await expect(currentSiteSettings(handle.db, OWNER)).rejects.toThrow(/connection refused/);
    expect((await currentSiteSettings(handle.db, OWNER)).ownerEmail).toBe(OWNER);
    expect(select.mock.calls.length).toBe(2);
  });

  it("does not answer for another owner address or another database", async () => {
    clockAt(6_000_000);
    expect((await currentSiteSettings(handle.db, OWNER)).ownerEmail).toBe(OWNER);
    expect((await currentSiteSettings(handle.db, "someone@example.test")).ownerEmail).toBe("someone@example.test");
    const other = await createTestDatabase({ seed: false });
    try {
      expect((await currentSiteSettings(other.db, OWNER)).phone).not.toBe("021 555 0101");
    } finally {
      await other.close();
    }
  });
});
