import { sitemapPaths, sitemapXml } from "~/catalog/sitemap.server";
import type { Route } from "./+types/sitemap";

export async function loader({ context }: Route.LoaderArgs) {
  const paths = await sitemapPaths(context.db);
  return new Response(sitemapXml(context.config.siteUrl, paths), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
