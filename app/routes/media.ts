import { findMedia, parseMediaFile } from "~/media/serve.server";
import type { Route } from "./+types/media";

const IMMUTABLE = "public, max-age=31536000, immutable";

const notFound = () =>
  new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

const matchesEtag = (header: string | null, etag: string) =>
  header !== null && header.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*");

/**
 * GET /media/<hash>.webp and /media/<hash>.<width>w.<avif|webp>: an uploaded photo from the
 * database (decision 078). Renditions are immutable under their content-hashed names; while they are
 * still being made the master is sent uncached instead, so a just-uploaded photo shows at once.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const wanted = parseMediaFile(params.file ?? "");
  if (!wanted) return notFound();
  const found = await findMedia(context.db, wanted);
  if (found.kind === "missing") return notFound();
  if (found.kind === "master") {
    return new Response(new Uint8Array(found.bytes), {
      headers: {
        "Content-Type": "image/webp",
        "Content-Length": String(found.bytes.length),
        "Cache-Control": "no-store",
      },
    });
  }
  const headers = { ETag: found.etag, "Cache-Control": IMMUTABLE, "Content-Type": `image/${found.format}` };
  if (matchesEtag(request.headers.get("if-none-match"), found.etag))
    return new Response(null, { status: 304, headers });
  const bytes = await found.bytes();
  return new Response(new Uint8Array(bytes), { headers: { ...headers, "Content-Length": String(bytes.length) } });
}
