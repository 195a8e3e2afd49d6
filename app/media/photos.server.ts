import { createHash } from "node:crypto";
import { inArray, sql } from "drizzle-orm";
import type sharp from "sharp";
import type { Database } from "~/db/client.server";
import { mediaAssets } from "~/db/schema";
import { UPLOADED_PHOTO_SRC } from "~/lib/image-renditions";
import { bytesParam } from "./bytes.server";
import { imageWork, loadSharp } from "./image-work.server";
import { MAX_PHOTO_BYTES, TOO_LARGE_MESSAGE, type StoredPhoto } from "./photo-schema";
import { wakeRenditionWorker } from "./renditions.server";

export type { StoredPhoto } from "./photo-schema";

/** The master's longest side: enough for a full-screen view on any screen, far less than a phone's 4,000+ px. */
export const MASTER_MAX_SIDE = 2400;
/** A decompression bomb (a small file that decodes to gigapixels) is refused before it fills memory. */
export const MAX_INPUT_PIXELS = 100_000_000;
const NAME_MAX = 200;

export type StorePhotoResult = { ok: true; photo: StoredPhoto } | { ok: false; error: string };

const SUPPORTED_LIST = "a JPEG, PNG, WebP or AVIF photo";

/** True when this server's libvips can decode HEIC (HEVC in HEIF): sharp's prebuilt binaries cannot. */
export function canDecodeHeic(): boolean {
  return loadSharp().format.heif.input.fileSuffix?.includes(".heic") ?? false;
}

const HEIC_BRANDS = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"]);
const AVIF_BRANDS = new Set(["avif", "avis"]);

/** An ISO-BMFF file whose `ftyp` box names a HEIC brand and no AVIF brand: an iPhone's photo. */
export function looksLikeHeic(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false;
  const ascii = (from: number) => String.fromCharCode(...bytes.subarray(from, from + 4));
  if (ascii(4) !== "ftyp") return false;
  const boxSize = Math.min(
    ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0,
    bytes.length,
    256,
  );
  const brands = [ascii(8)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(at));
  return brands.some((b) => HEIC_BRANDS.has(b)) && !brands.some((b) => AVIF_BRANDS.has(b));
}

/** The file's own name, for messages and the asset row: no folders, no control characters. */
export function cleanFileName(name: string): string {
  const base = name
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  return (base || "photo").slice(0, NAME_MAX);
}

const heicMessage = (name: string) =>
  `"${name}" is a HEIC photo, which this server cannot read. On the iPhone, share it as JPEG (choose "Most ` +
  `Compatible" under Settings > Camera > Formats, or "Options > Most Compatible" when sharing) and upload it again.`;

interface Master {
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes the upload and makes its master: rotated upright from the EXIF orientation, every piece
 * of metadata dropped (sharp writes none unless asked, so the owner's GPS position never leaves),
 * converted to sRGB, at most 2400 px on its long side, as WebP quality 90.
 */
async function makeMaster(
  bytes: Uint8Array,
  name: string,
): Promise<{ ok: true; master: Master } | { ok: false; error: string }> {
  const options = { failOn: "error" as const, limitInputPixels: MAX_INPUT_PIXELS };
  let meta: sharp.Metadata;
  try {
    meta = await loadSharp()(bytes, options).metadata();
  } catch {
    return { ok: false, error: `"${name}" is not a photo we can read. Upload ${SUPPORTED_LIST}.` };
  }
  const isAvif = meta.format === "heif" && meta.compression === "av1";
  if (meta.format === "heif" && !isAvif && !canDecodeHeic()) return { ok: false, error: heicMessage(name) };
  if (!["jpeg", "png", "webp", "heif"].includes(meta.format ?? "")) {
    const kind = (meta.format ?? "unknown").toUpperCase();
    return { ok: false, error: `"${name}" is a ${kind} image. Upload ${SUPPORTED_LIST}.` };
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) {
    return {
      ok: false,
      error: `"${name}" has more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels. Upload a smaller copy.`,
    };
  }
  try {
    const { data, info } = await loadSharp()(bytes, options)
      .rotate()
      .resize({ width: MASTER_MAX_SIDE, height: MASTER_MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 90 })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, master: { bytes: data, width: info.width, height: info.height } };
  } catch {
    return {
      ok: false,
      error: `"${name}" could not be read to the end: the file may be damaged. Upload ${SUPPORTED_LIST}.`,
    };
  }
}

/** The content hash that names an asset and its URLs. */
export const masterHash = (master: Uint8Array) => createHash("sha256").update(master).digest("hex").slice(0, 20);

export const photoSrc = (hash: string) => `/media/${hash}.webp`;

/**
 * Validates, decodes and stores one uploaded photo, and wakes the rendition worker. The same photo
 * uploaded twice is one asset. A refused file stores nothing.
 */
export async function storePhoto(db: Database, bytes: Uint8Array, originalName: string): Promise<StorePhotoResult> {
  const name = cleanFileName(originalName);
  if (bytes.length === 0) return { ok: false, error: `"${name}" is empty. Choose the photo again.` };
  if (bytes.length > MAX_PHOTO_BYTES) return { ok: false, error: `"${name}" ${TOO_LARGE_MESSAGE}` };
  if (looksLikeHeic(bytes) && !canDecodeHeic()) return { ok: false, error: heicMessage(name) };

  const made = await imageWork.run("upload", () => makeMaster(bytes, name));
  if (!made.ok) return made;
  const { master } = made;
  const hash = masterHash(master.bytes);
  await db
    .insert(mediaAssets)
    .values({
      hash,
      originalName: name,
      width: master.width,
      height: master.height,
      status: "pending",
      master: bytesParam(master.bytes),
    })
    // A photo whose renditions failed gets another try when uploaded again.
    .onConflictDoUpdate({
      target: mediaAssets.hash,
      set: { status: "pending", error: null },
      setWhere: sql`${mediaAssets.status} = 'failed'`,
    });
  wakeRenditionWorker(db);
  return { ok: true, photo: { src: photoSrc(hash), width: master.width, height: master.height, name } };
}

/**
 * The positions of the photos that name an upload the media library does not hold: a form can send
 * any well-formed /media address, and a newsletter would then mail a broken image to everyone.
 */
export async function unknownUploadedPhotos(db: Database, srcs: readonly string[]): Promise<number[]> {
  const hashOf = (src: string) => (UPLOADED_PHOTO_SRC.test(src) ? src.slice("/media/".length, -".webp".length) : null);
  const hashes = [...new Set(srcs.map(hashOf).filter((h): h is string => h !== null))];
  if (!hashes.length) return [];
  const found = await db.select({ hash: mediaAssets.hash }).from(mediaAssets).where(inArray(mediaAssets.hash, hashes));
  const known = new Set(found.map((row) => row.hash));
  return srcs.flatMap((src, i) => {
    const hash = hashOf(src);
    return hash !== null && !known.has(hash) ? [i] : [];
  });
}

const isFile = (value: FormDataEntryValue): value is File => typeof value !== "string";

/**
 * The photos a product, event, post or gallery form sends: the repeated `photoSrc` and `photoAlt`
 * fields in display order, then the files picked without JavaScript (`photoFiles`), each stored and
 * appended with an empty alt text for the owner to fill in. Alt texts are checked by the form's schema.
 */
export async function readPhotosFromForm(
  db: Database,
  formData: FormData,
): Promise<{ photos: { src: string; alt: string }[]; errors: string[] }> {
  const srcs = formData.getAll("photoSrc");
  const alts = formData.getAll("photoAlt");
  const photos = srcs.flatMap((src, i) => {
    if (typeof src !== "string") return [];
    const alt = alts[i];
    return [{ src, alt: typeof alt === "string" ? alt : "" }];
  });
  const errors: string[] = [];
  // An empty file input still sends one part with no name and no bytes.
  const files = formData
    .getAll("photoFiles")
    .filter(isFile)
    .filter((file) => file.size > 0 || file.name !== "");
  for (const file of files) {
    const stored = await storePhoto(db, new Uint8Array(await file.arrayBuffer()), file.name);
    if (stored.ok) photos.push({ src: stored.photo.src, alt: "" });
    else errors.push(stored.error);
  }
  return { photos, errors };
}
