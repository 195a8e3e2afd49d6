import QRCode from "qrcode";

/** The ticket's QR as a PNG, large enough for a door scanner from a phone screen or a print-out. */
export const qrPng = (text: string) =>
  QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 320 });

/** The ticket's QR as inline SVG for its page (no image request, sharp at any size). */
export const qrSvg = (text: string) => QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
