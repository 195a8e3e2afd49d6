import { and, desc, eq, lte } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { mediaAssets, mediaRenditions } from "~/db/schema";
import { RENDITION_WIDTHS, type RenditionFormat } from "~/lib/image-renditions";
import { bytesColumn, fromBase64 } from "./bytes.server";

/** `<hash>.webp` (the `src`: the largest WebP) or `<hash>.<width>w.<avif|webp>` (one rendition). */
const MEDIA_FILE = /^([0-9a-f]{20})(?:\.([1-9]\d{0,4})w\.(avif|webp)|\.webp)$/;

export interface MediaFileRequest {
  hash: string;
  format: RenditionFormat;
  /** Undefined for the `src`: the largest WebP. */
  width?: number;
}

export function parseMediaFile(file: string): MediaFileRequest | null {
  const match = MEDIA_FILE.exec(file);
  if (!match) return null;
  const [, hash, width, format] = match;
  return width
    ? { hash: hash!, width: Number(width), format: format as RenditionFormat }
    : { hash: hash!, format: "webp" };
}

export type MediaLookup =
  | { kind: "missing" }
  /** Renditions not made yet (or failed): the master WebP, never cached. */
  | { kind: "master"; bytes: Buffer }
  | { kind: "rendition"; etag: string; format: RenditionFormat; bytes: () => Promise<Buffer> };

/**
 * Finds what to send for a media URL. A standard width a small photo lacks (800 or 1200 for a
 * 600 px photo) gets its largest rendition, so a `srcset` written without the photo's width still
 * works; any other missing width is a 404.
 */
export async function findMedia(db: Database, request: MediaFileRequest): Promise<MediaLookup> {
  const [asset] = await db
    .select({ status: mediaAssets.status })
    .from(mediaAssets)
    .where(eq(mediaAssets.hash, request.hash));
  if (!asset) return { kind: "missing" };
  if (asset.status !== "ready") {
    const [row] = await db
      .select({ master: bytesColumn(mediaAssets.master) })
      .from(mediaAssets)
      .where(eq(mediaAssets.hash, request.hash));
    return row ? { kind: "master", bytes: fromBase64(row.master) } : { kind: "missing" };
  }
  const conditions = [eq(mediaRenditions.hash, request.hash), eq(mediaRenditions.format, request.format)];
  if (request.width !== undefined) {
    const standard = (RENDITION_WIDTHS as readonly number[]).includes(request.width);
    conditions.push(standard ? lte(mediaRenditions.width, request.width) : eq(mediaRenditions.width, request.width));
  }
  const [chosen] = await db
    .select({ width: mediaRenditions.width })
    .from(mediaRenditions)
    .where(and(...conditions))
    .orderBy(desc(mediaRenditions.width))
    .limit(1);
  if (!chosen) return { kind: "missing" };
  return {
    kind: "rendition",
    // A rendition's bytes never change once stored (insert-only, keyed by content hash), so its key is a strong validator.
    etag: `"${request.hash}-${chosen.width}w-${request.format}"`,
    format: request.format,
    bytes: async () => {
      const [row] = await db
        .select({ bytes: bytesColumn(mediaRenditions.bytes) })
        .from(mediaRenditions)
        .where(
          and(
            eq(mediaRenditions.hash, request.hash),
            eq(mediaRenditions.format, request.format),
            eq(mediaRenditions.width, chosen.width),
          ),
        );
      return fromBase64(row!.bytes);
    },
  };
}
