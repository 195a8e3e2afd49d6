import { z } from "zod";
import { isStorableText } from "~/lib/storable-text";
import type { AnalyticsEventType } from "./track";

/** Every event type the endpoint accepts; `satisfies` keeps it in step with track.ts. */
export const ANALYTICS_EVENT_TYPES = [
  "page_view",
  "product_view",
  "event_view",
  "consultation_booking",
  "contact_form_submit",
  "checkout_page_viewed",
  "checkout_attempted",
  "checkout_created_success",
  "order_confirmation_viewed",
  "purchase_success",
  "purchase_failed",
  "purchase_pending",
  "add_to_bag",
  "bag_viewed",
  "checkout_started",
] as const satisfies readonly AnalyticsEventType[];

type Missing = Exclude<AnalyticsEventType, (typeof ANALYTICS_EVENT_TYPES)[number]>;
// Fails to compile when track.ts gains a type this list lacks.
const everyTypeListed: Missing extends never ? true : false = true;
void everyTypeListed;

export const MAX_ANALYTICS_BODY_BYTES = 8 * 1024;
/** Stored size caps (issue 23): a path of 512 characters, metadata of 1 KB as serialized JSON. */
export const MAX_PAGE_PATH_CHARS = 512;
export const MAX_METADATA_JSON_BYTES = 1024;

/** A missing required field says so by name (through the route's "path: message"), not "expected string". */
const required = { error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : undefined) };

const text = (max: number, params?: typeof required) =>
  z.string(params).max(max).refine(isStorableText, "must not contain NUL characters");

const optionalText = (max: number) =>
  text(max)
    .nullish()
    .transform((v) => (v ? v : null));

const metadataValue = z.union([text(500), z.number().finite(), z.boolean(), z.null()]);

/**
 * Flat metadata: string, number, boolean or null values. Only the outer `.optional()` lets the key be
 * left out: an inner `.nullish()` behind a refine on unknown input made Zod 4 call a missing key
 * "expected nonoptional" (issue 22).
 */
const metadataRecord = z
  .unknown()
  // Zod's record drops a "__proto__" key without a word; refuse it instead, so what is stored is what was sent.
  .refine(
    (v) => v === null || typeof v !== "object" || !Object.hasOwn(v, "__proto__"),
    "must not use the key __proto__",
  )
  .pipe(z.record(text(64), metadataValue).nullable())
  .refine((v) => v === null || new TextEncoder().encode(JSON.stringify(v)).length <= MAX_METADATA_JSON_BYTES, {
    message: `must be at most ${MAX_METADATA_JSON_BYTES} bytes as JSON`,
  });

/** One analytics event as the browser sends it (app/analytics/track.ts). */
export const analyticsEventSchema = z.object({
  eventType: z.enum(ANALYTICS_EVENT_TYPES, required),
  pagePath: text(MAX_PAGE_PATH_CHARS, required).pipe(z.string().min(1).startsWith("/", "must start with /")),
  itemName: optionalText(200),
  sessionId: z.string(required).regex(/^[A-Za-z0-9_-]{8,64}$/, "must be a random id (8-64 letters, digits, - or _)"),
  referrer: optionalText(512),
  metadata: metadataRecord.optional().transform((v) => v ?? null),
});

export type AnalyticsEventInput = z.infer<typeof analyticsEventSchema>;
