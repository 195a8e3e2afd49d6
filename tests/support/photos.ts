import sharp from "sharp";

/** A photo-like JPEG: noise compresses like a real photo, not like a flat colour. */
export function noisyJpeg(width: number, height: number, options: { quality?: number } = {}): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: "#000000", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: options.quality ?? 80 })
    .toBuffer();
}

/** A flat-colour JPEG: cheap to encode, for tests about sizes rather than bytes. */
export function flatJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#F2B705" } })
    .jpeg()
    .toBuffer();
}

/** A JPEG with the camera's GPS position and a maker comment in its EXIF, as a phone writes it. */
export function jpegWithGps(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#A3431F" } })
    .withExif({
      IFD0: { Make: "HoneyPhone", Model: "Bee 12", Copyright: "owner-home" },
      IFD3: {
        GPSLatitudeRef: "S",
        GPSLatitude: "33/1 55/1 4536/100",
        GPSLongitudeRef: "E",
        GPSLongitude: "18/1 25/1 2400/100",
      },
    })
    .jpeg()
    .toBuffer();
}

/**
 * A JPEG stored 300 wide and 200 high with EXIF orientation 6 (the phone was held upright): shown
 * correctly it is 200 wide and 300 high. Its left half is dark, so rotation can be checked.
 */
export async function sidewaysJpeg(): Promise<Buffer> {
  const left = await sharp({ create: { width: 150, height: 200, channels: 3, background: "#000000" } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 300, height: 200, channels: 3, background: "#ffffff" } })
    .composite([{ input: left, left: 0, top: 0 }])
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

/** The first 32 bytes of an iPhone photo: an ISO-BMFF `ftyp` box naming the HEIC brands. */
export function heicHeader(): Uint8Array {
  const box = Buffer.alloc(32);
  box.writeUInt32BE(24, 0);
  box.write("ftypheic", 4, "latin1");
  box.writeUInt32BE(0, 12);
  box.write("mif1heic", 16, "latin1");
  box.writeUInt32BE(8, 24);
  box.write("meta", 28, "latin1");
  return new Uint8Array(box);
}
