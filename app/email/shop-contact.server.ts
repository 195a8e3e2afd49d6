import type { Database } from "~/db/client.server";
import { site } from "~/content/site";

export interface ShopContact {
  name: string;
  email: string;
  phone: string;
  location: string;
}

/**
 * The shop's contact details every customer email ends with. The one place that reads them, so
 * switching to the owner's saved settings is a change here only.
 */
export async function shopContact(_db: Database | Pick<Database, "select">): Promise<ShopContact> {
  return { name: site.name, email: site.email, phone: site.phone, location: site.location };
}
