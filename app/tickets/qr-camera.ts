/**
 * Continuous QR scanning from the phone's camera: the browser's own BarcodeDetector where it has one
 * (Chrome on Android), else jsQR, fetched by a dynamic import only now, so no other page, and not this
 * one until the camera starts, pays for its bytes (Safari on an iPhone, Firefox). Reads a frame every
 * SCAN_EVERY_MS and reports each code once until a different code has been seen or REPEAT_AFTER_MS
 * has passed, so a ticket held in front of the camera is not checked in over and over.
 */
type ReadFrame = (video: HTMLVideoElement) => Promise<string | null>;

interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type BarcodeDetectorClass = new (options: { formats: string[] }) => BarcodeDetectorLike;

const SCAN_EVERY_MS = 150;
const REPEAT_AFTER_MS = 4_000;
/** jsQR's work grows with the pixels: a 640-pixel-wide frame reads a phone-sized QR and keeps old phones cool. */
const MAX_WIDTH = 640;

export const canUseCamera = () =>
  typeof navigator !== "undefined" && typeof navigator.mediaDevices?.getUserMedia === "function";

async function frameReader(): Promise<ReadFrame> {
  const Detector = (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Detector) {
    const detector = new Detector({ formats: ["qr_code"] });
    return async (video) => (await detector.detect(video).catch(() => []))[0]?.rawValue ?? null;
  }
  const { default: jsQR } = await import("jsqr");
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  return async (video) => {
    if (!context || !video.videoWidth || !video.videoHeight) return null;
    const scale = Math.min(1, MAX_WIDTH / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" })?.data ?? null;
  };
}

/** Starts the back camera in `video` and calls `onCode` for each new code; returns a function that stops it. */
export async function startQrScanning(
  video: HTMLVideoElement,
  onCode: (code: string) => Promise<void>,
): Promise<() => void> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    stream.getTracks().forEach((track) => track.stop());
    video.srcObject = null;
  };
  try {
    video.srcObject = stream;
    await video.play();
    const read = await frameReader();
    let last = { code: "", at: -Infinity };
    const tick = async () => {
      if (stopped) return;
      const code = await read(video).catch(() => null);
      const at = performance.now();
      if (code && (code !== last.code || at - last.at > REPEAT_AFTER_MS)) {
        await onCode(code);
        last = { code, at: performance.now() };
      } else if (code) {
        last.at = at;
      }
      if (!stopped) timer = setTimeout(() => void tick(), SCAN_EVERY_MS);
    };
    void tick();
  } catch (error) {
    stop();
    throw error;
  }
  return stop;
}
