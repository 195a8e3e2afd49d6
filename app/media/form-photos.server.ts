// Interim: replaced by the media capability's version (uploads included) when it lands.
import type { Database } from "~/db/client.server";

export async function readPhotosFromForm(_db: Database, form: FormData): Promise<{ photos: { src: string; alt: string }[]; errors: string[] }> {
  const srcs = form.getAll("photoSrc").map(String);
  const alts = form.getAll("photoAlt").map(String);
  return { photos: srcs.map((src, i) => ({ src, alt: alts[i] ?? "" })), errors: [] };
}
