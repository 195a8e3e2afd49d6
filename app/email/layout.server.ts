import type { ShopContact } from "./shop-contact.server";

/** What an email says, in order; each block renders as HTML and as plain text. */
export type EmailBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "facts"; rows: [label: string, value: string][] }
  | { kind: "button"; href: string; label: string }
  | { kind: "heading"; text: string }
  /** Pre-built HTML (already escaped by its builder) with its plain-text equivalent. */
  | { kind: "raw"; html: string; text: string };

export interface EmailContent {
  /** The first line a mail app shows in its list. */
  preheader: string;
  heading: string;
  blocks: EmailBlock[];
  /** Customer emails carry the order reference and the shop's contact details. */
  reference?: string;
  contact: ShopContact;
}

const BRAND = {
  honey: "#F2B705",
  ink: "#1F1A17",
  inkSoft: "#4A3F38",
  cream: "#FFF8E7",
  accent: "#A3431F",
  white: "#FFFFFF",
};
const FONT = "'DM Sans', Helvetica, Arial, sans-serif";
const DISPLAY = "Fraunces, Georgia, 'Times New Roman', serif";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** The attributes of every table that lays the email out (not a data table), as email clients need them. */
const LAYOUT_TABLE = `role="presentation" width="100%" cellpadding="0" cellspacing="0"`;

const paragraphHtml = (text: string) => text.split("\n").map(escapeHtml).join("<br>");

function blockHtml(block: EmailBlock): string {
  switch (block.kind) {
    case "paragraph":
      return `<p style="margin:0 0 16px;font:16px/1.5 ${FONT};color:${BRAND.ink};">${paragraphHtml(block.text)}</p>`;
    case "heading":
      return `<h2 style="margin:24px 0 8px;font:600 20px/1.3 ${DISPLAY};color:${BRAND.ink};">${escapeHtml(block.text)}</h2>`;
    case "facts": {
      const labelStyle = `padding:6px 12px 6px 0;font:600 15px/1.4 ${FONT};color:${BRAND.inkSoft};vertical-align:top;white-space:nowrap;`;
      const valueStyle = `padding:6px 0;font:15px/1.4 ${FONT};color:${BRAND.ink};word-break:break-word;`;
      const rows = block.rows
        .map(
          ([label, value]) =>
            `<tr><td style="${labelStyle}">${escapeHtml(label)}</td><td style="${valueStyle}">${paragraphHtml(value)}</td></tr>`,
        )
        .join("");
      return `<table ${LAYOUT_TABLE} style="margin:0 0 16px;border-collapse:collapse;">${rows}</table>`;
    }
    case "button": {
      const linkStyle =
        `display:inline-block;padding:12px 24px;border-radius:999px;background:${BRAND.honey};color:${BRAND.ink};` +
        `font:600 16px/1.2 ${FONT};text-decoration:none;`;
      return `<p style="margin:8px 0 24px;"><a href="${escapeHtml(block.href)}" style="${linkStyle}">${escapeHtml(block.label)}</a></p>`;
    }
    case "raw":
      return block.html;
  }
}

function blockText(block: EmailBlock): string {
  switch (block.kind) {
    case "paragraph":
      return block.text;
    case "heading":
      return `${block.text}\n${"-".repeat(Math.min(block.text.length, 60))}`;
    case "facts":
      return block.rows.map(([label, value]) => `${label}: ${value}`).join("\n");
    case "button":
      return `${block.label}: ${block.href}`;
    case "raw":
      return block.text;
  }
}

function contactLines(contact: ShopContact): string[] {
  return [contact.name, `Email: ${contact.email}`, `Phone: ${contact.phone}`, contact.location];
}

/**
 * One email in the brand's look, as HTML (inline styles only, a single 600 px column that
 * narrows on a phone, cream page, honey band) and as the plain-text part with the same words.
 */
export function renderEmail(content: EmailContent): { html: string; text: string } {
  const reference = content.reference
    ? `<p style="margin:0 0 16px;font:600 15px/1.4 ${FONT};color:${BRAND.ink};">Order reference: ` +
      `<span style="font-family:monospace;">${escapeHtml(content.reference)}</span></p>`
    : "";
  const footer = contactLines(content.contact).map(escapeHtml).join("<br>");
  const head =
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="color-scheme" content="light"><title>${escapeHtml(content.heading)}</title></head>`;
  const bandStyle = `background:${BRAND.honey};padding:20px 24px;font:600 22px/1.2 ${DISPLAY};color:${BRAND.ink};`;
  const html = `<!doctype html>
<html lang="en">${head}
<body style="margin:0;padding:0;background:${BRAND.cream};">
<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(content.preheader)}</div>
<table ${LAYOUT_TABLE} style="background:${BRAND.cream};"><tr><td align="center" style="padding:16px 8px;">
<table ${LAYOUT_TABLE} style="max-width:600px;width:100%;background:${BRAND.white};border-radius:16px;overflow:hidden;">
<tr><td style="${bandStyle}">${escapeHtml(content.contact.name)}</td></tr>
<tr><td style="padding:24px;">
<h1 style="margin:0 0 16px;font:600 26px/1.25 ${DISPLAY};color:${BRAND.ink};">${escapeHtml(content.heading)}</h1>
${reference}${content.blocks.map(blockHtml).join("\n")}
</td></tr>
<tr><td style="padding:16px 24px;background:${BRAND.ink};font:14px/1.5 ${FONT};color:${BRAND.cream};">${footer}</td></tr>
</table></td></tr></table></body></html>`;
  const text = [
    content.heading,
    "",
    ...(content.reference ? [`Order reference: ${content.reference}`, ""] : []),
    ...content.blocks.flatMap((b) => [blockText(b), ""]),
    "--",
    ...contactLines(content.contact),
  ].join("\n");
  return { html, text };
}
