import type { MetaDescriptor } from "react-router";
import { site } from "~/content/site";

export interface SeoInput {
  /** Page title without the brand; the brand is appended. */
  title: string;
  description: string;
  /** Path of the canonical URL, e.g. "/product/candy-earrings". */
  path: string;
  /** Absolute origin of the site (root loader's siteUrl). */
  siteUrl: string;
  image?: string;
  type?: "website" | "article" | "product";
  /** Structured data objects rendered as JSON-LD. */
  jsonLd?: object[];
  noindex?: boolean;
}

/** The card shown when a page is shared (1200x630). Social networks do not show SVG, so placeholders fall back to it. */
export const DEFAULT_SHARE_IMAGE = "/images/og/share.png";

function shareImage(image: string | undefined): string {
  return image && !image.toLowerCase().endsWith(".svg") ? image : DEFAULT_SHARE_IMAGE;
}

/** Title, description, canonical URL, Open Graph and JSON-LD for one page. */
export function seo(input: SeoInput): MetaDescriptor[] {
  const title = input.title === site.name ? site.name : `${input.title} | ${site.name}`;
  const url = `${input.siteUrl}${input.path}`;
  const image = `${input.siteUrl}${shareImage(input.image)}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.name },
    { property: "og:title", content: title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: url },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:image", content: image },
    { property: "og:image:alt", content: title },
    { property: "og:locale", content: "en_ZA" },
    { name: "twitter:card", content: "summary_large_image" },
  ];
  if (input.noindex) tags.push({ name: "robots", content: "noindex" });
  for (const data of input.jsonLd ?? []) tags.push({ "script:ld+json": data });
  return tags;
}

/** Reads the site URL the root loader exposes, for meta functions. */
export function siteUrlFrom(matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>): string {
  const root = matches.find((m) => m?.id === "root")?.data as { siteUrl?: string } | undefined;
  return root?.siteUrl ?? "";
}
