import { useRouteLoaderData } from "react-router";
import { site } from "~/content/site";
import type { PublicSiteSettings } from "./site-settings";

// No zod here: this module is in every page's JavaScript (the footer).

export { telHref, whatsAppHref } from "~/lib/phone";

export const DEFAULT_PUBLIC_SETTINGS: PublicSiteSettings = {
  email: site.email,
  phone: site.phone,
  whatsapp: site.whatsapp,
  location: site.location,
  availability: site.availability,
  social: site.social,
};

/**
 * The contact details the owner set in /admin/settings, from the root loader's data. The root never
 * revalidates, so a change is seen on the next full page load (decision 082).
 */
export function useSiteSettings(): PublicSiteSettings {
  const root = useRouteLoaderData("root") as { settings?: PublicSiteSettings } | undefined;
  return root?.settings ?? DEFAULT_PUBLIC_SETTINGS;
}

/** The same, for meta functions (which receive the matches rather than hooks). */
export function siteSettingsFrom(
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>,
): PublicSiteSettings {
  const root = matches.find((m) => m?.id === "root")?.data as { settings?: PublicSiteSettings } | undefined;
  return root?.settings ?? DEFAULT_PUBLIC_SETTINGS;
}
