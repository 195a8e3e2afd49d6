import { randomBytes } from "node:crypto";

/** 18 random bytes (144 bits) as base64url: 24 characters, safe in a URL and a QR code. */
export const TICKET_CODE_BYTES = 18;
export const TICKET_CODE_PATTERN = /^[A-Za-z0-9_-]{24}$/;

export const newTicketCode = () => randomBytes(TICKET_CODE_BYTES).toString("base64url");

/** A typed or scanned code as the door sends it: a full ticket URL or the code alone. */
export function normaliseTicketCode(input: string): string {
  const trimmed = input.trim();
  const fromUrl = /\/ticket\/([A-Za-z0-9_-]+)\/?$/.exec(trimmed);
  return fromUrl ? fromUrl[1]! : trimmed;
}

export const ticketUrl = (siteUrl: string, code: string) => `${siteUrl.replace(/\/$/, "")}/ticket/${code}`;
