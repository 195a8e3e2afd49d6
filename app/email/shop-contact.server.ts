import { site } from "~/content/site";
import type { Database } from "~/db/client.server";
import { getSiteSettings } from "~/settings/site-settings.server";
import type { SiteSettings } from "~/settings/site-settings";

export interface ShopContact {
  name: string;
  email: string;
  phone: string;
  location: string;
}

/** The shop's contact details every customer email ends with: the owner's saved settings over the defaults. */
export async function shopContact(db: Pick<Database, "select">): Promise<ShopContact> {
  // The owner's notification address is not part of what customers see, so no fallback is needed for it.
  return shopContactFrom(await getSiteSettings(db, ""));
}

export function shopContactFrom(settings: Pick<SiteSettings, "email" | "phone" | "location">): ShopContact {
  return { name: site.name, email: settings.email, phone: settings.phone, location: settings.location };
}
