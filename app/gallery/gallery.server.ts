import { asc, eq, inArray, max } from "drizzle-orm";
import { changedFields, recordAudit } from "~/admin/audit.server";
import type { Database, Tx } from "~/db/client.server";
import { galleryPhotos } from "~/db/schema";
import type { GalleryAddInput, GalleryCaptionInput } from "./gallery-schema";

/** The events gallery in the owner's order (ties by when each was added). */
export function listGalleryPhotos(db: Pick<Database, "select">) {
  return db.select().from(galleryPhotos).orderBy(asc(galleryPhotos.sortOrder), asc(galleryPhotos.id));
}

const lockGallery = (tx: Tx) =>
  tx.select({ id: galleryPhotos.id }).from(galleryPhotos).orderBy(asc(galleryPhotos.id)).for("update");

/** Adds photos at the end; refused (nothing stored) when one of them is already in the gallery. */
export async function addGalleryPhotos(
  db: Database,
  input: GalleryAddInput,
  now: Date,
): Promise<{ ok: true; added: number } | { ok: false; error: string }> {
  const srcs = input.photos.map((p) => p.src);
  if (new Set(srcs).size !== srcs.length) return { ok: false, error: "The same photo was chosen twice." };
  return db.transaction(async (tx) => {
    await lockGallery(tx);
    const present = await tx
      .select({ src: galleryPhotos.src })
      .from(galleryPhotos)
      .where(inArray(galleryPhotos.src, srcs));
    if (present.length)
      return {
        ok: false as const,
        error: `${present.length === 1 ? "This photo is" : "These photos are"} already in the gallery.`,
      };
    const [{ last }] = await tx.select({ last: max(galleryPhotos.sortOrder) }).from(galleryPhotos);
    const rows = await tx
      .insert(galleryPhotos)
      .values(
        input.photos.map((p, i) => ({
          src: p.src,
          alt: p.alt,
          caption: input.caption || null,
          sortOrder: (last ?? 0) + i + 1,
          createdAt: now,
        })),
      )
      .returning();
    await recordAudit(
      tx,
      {
        action: "gallery.add",
        entity: "gallery",
        entityId: rows.map((r) => r.id).join(","),
        summary: `Added ${rows.length} ${rows.length === 1 ? "photo" : "photos"} to the gallery`,
        after: { photos: rows.map((r) => ({ src: r.src, alt: r.alt, caption: r.caption })) },
      },
      now,
    );
    return { ok: true as const, added: rows.length };
  });
}

/** Changes one photo's alt text and caption. false when the photo is gone. */
export async function updateGalleryPhoto(db: Database, input: GalleryCaptionInput, now: Date): Promise<boolean> {
  const id = Number(input.id);
  const change = { alt: input.alt, caption: input.caption || null };
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(galleryPhotos).where(eq(galleryPhotos.id, id)).for("update");
    if (!before) return false;
    const diff = changedFields({ alt: before.alt, caption: before.caption }, change);
    if (!diff.fields.length) return true;
    await tx.update(galleryPhotos).set(change).where(eq(galleryPhotos.id, id));
    await recordAudit(
      tx,
      {
        action: "gallery.update",
        entity: "gallery",
        entityId: id,
        summary: `Changed ${diff.fields.join(" and ")} of a gallery photo (${before.src})`,
        before: diff.before,
        after: diff.after,
      },
      now,
    );
    return true;
  });
}

/**
 * Moves a photo one place up or down. The whole order is written back as 1..n, so photos that had
 * equal sort orders (or gaps) end up in a definite order. "edge" when it is already first or last.
 */
export async function moveGalleryPhoto(
  db: Database,
  id: number,
  direction: "up" | "down",
  now: Date,
): Promise<"moved" | "edge" | "missing"> {
  return db.transaction(async (tx) => {
    await lockGallery(tx);
    const rows = await listGalleryPhotos(tx);
    const from = rows.findIndex((r) => r.id === id);
    if (from === -1) return "missing" as const;
    const to = direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= rows.length) return "edge" as const;
    const order = rows.slice();
    [order[from], order[to]] = [order[to]!, order[from]!];
    for (const [index, row] of order.entries()) {
      if (row.sortOrder !== index + 1)
        await tx
          .update(galleryPhotos)
          .set({ sortOrder: index + 1 })
          .where(eq(galleryPhotos.id, row.id));
    }
    await recordAudit(
      tx,
      {
        action: "gallery.move",
        entity: "gallery",
        entityId: id,
        summary: `Moved a gallery photo ${direction} to place ${to + 1} of ${rows.length} (${rows[from]!.src})`,
        before: { place: from + 1 },
        after: { place: to + 1 },
      },
      now,
    );
    return "moved" as const;
  });
}

/** Takes a photo out of the gallery (the image itself stays in the media library). */
export async function removeGalleryPhoto(db: Database, id: number, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(galleryPhotos).where(eq(galleryPhotos.id, id)).for("update");
    if (!row) return false;
    await tx.delete(galleryPhotos).where(eq(galleryPhotos.id, id));
    await recordAudit(
      tx,
      {
        action: "gallery.remove",
        entity: "gallery",
        entityId: id,
        summary: `Removed a photo from the gallery (${row.src})`,
        before: { src: row.src, alt: row.alt, caption: row.caption, sortOrder: row.sortOrder },
      },
      now,
    );
    return true;
  });
}
