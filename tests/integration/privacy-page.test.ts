import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { sitemapPaths } from "~/catalog/sitemap.server";
import { informationRegulator } from "~/content/privacy";
import { saveSiteSettings, getSiteSettings } from "~/settings/site-settings.server";
import * as privacy from "~/routes/privacy";
import { get } from "../support/account";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";

// Issue 42: /privacy is made from the settings (who is responsible and how to reach them), with the
// rights and the Information Regulator's details, and is listed for search engines.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

describe("/privacy", () => {
  it("names the responsible party with the contact details saved in Settings", async () => {
    const owner = testConfig().mail.ownerEmail;
    const before = await get(privacy.loader, testContext(handle), "/privacy");
    const saved = await getSiteSettings(handle.db, owner);
    expect(before.body).toMatchObject({ shop: { name: "Honey Bee Sustainable Fashion", email: saved.email } });
    await saveSiteSettings(
      handle.db,
      { ...saved, email: "privacy@honeybee.example", phone: "+27 71 000 1111" },
      new Date("2025-09-20T08:00:00Z"),
      owner,
    );
    const after = await get(privacy.loader, testContext(handle), "/privacy");
    expect(after.body).toMatchObject({ shop: { email: "privacy@honeybee.example", phone: "+27 71 000 1111" } });
  });

  it("gives the Information Regulator's complaint address, and is in the sitemap", async () => {
    expect(informationRegulator.complaintsEmail).toBe("POPIAComplaints@inforegulator.org.za");
    expect(informationRegulator.complaintsPortal).toBe("https://eservices.inforegulator.org.za");
    expect(informationRegulator.address).toBe(
      "Woodmead North Office Park, 54 Maxwell Drive, Woodmead, Johannesburg, 2191",
    );
    expect(await sitemapPaths(handle.db)).toContain("/privacy");
  });
});
