// zod/mini: the admin's newsletter form, checked the same in the browser and the action (decision 060).
import * as z from "zod/mini";
import { parseSouthAfricanDateTime } from "~/events/event-schema";
import { photoAltSchema } from "~/media/photo-schema";

export const NEWSLETTER_LIMITS = { title: 200, body: 20_000, photos: 3 } as const;
export const NEWSLETTER_INTENTS = ["save", "test", "send", "schedule"] as const;
export const SEGMENT_KINDS = ["subscribers", "tiers", "attendees", "buyers"] as const;

const oneLine = (value: string) => ![...value].some((ch) => ch.charCodeAt(0) < 32 || ch === "\u007f");

export const newsletterSchema = z
  .object({
    intent: z.enum(NEWSLETTER_INTENTS, "Unknown action: nothing was changed."),
    postId: z.string().check(z.regex(/^(|[1-9][0-9]{0,8})$/, "Choose a post from the list.")),
    title: z
      .string()
      .check(
        z.trim(),
        z.maxLength(NEWSLETTER_LIMITS.title, `Title must be at most ${NEWSLETTER_LIMITS.title} characters.`),
        z.refine(oneLine, "Title must be one line of text."),
      ),
    body: z.string().check(
      z.trim(),
      z.maxLength(NEWSLETTER_LIMITS.body, `Text must be at most ${NEWSLETTER_LIMITS.body} characters.`),
      z.refine((v) => !v.includes("\u0000"), "Text contains characters we cannot store."),
    ),
    photos: z
      .array(photoAltSchema)
      .check(z.maxLength(NEWSLETTER_LIMITS.photos, `Choose at most ${NEWSLETTER_LIMITS.photos} photos.`)),
    card: z
      .string()
      .check(
        z.maxLength(220, "Choose a card from the list."),
        z.regex(/^(|product:[1-9][0-9]{0,8}|event:[a-z0-9][a-z0-9_-]{0,199})$/, "Choose a card from the list."),
      ),
    segment: z.enum(SEGMENT_KINDS, "Choose who receives it."),
    tiers: z.array(z.string().check(z.maxLength(100))),
    events: z.array(z.string().check(z.maxLength(200))),
    products: z.array(z.string().check(z.regex(/^[1-9][0-9]{0,8}$/, "Choose products from the list."))),
    sendAt: z.string().check(z.trim()),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (!v.postId && !v.title)
        ctx.addIssue({
          code: "custom",
          path: ["title"],
          message: "Write a title, or choose a post to send.",
          input: v,
        });
      if (!v.postId && !v.body)
        ctx.addIssue({
          code: "custom",
          path: ["body"],
          message: "Write the text, or choose a post to send.",
          input: v,
        });
      const needs = { tiers: "tier", attendees: "event", buyers: "product" } as const;
      const chosen = { tiers: v.tiers, attendees: v.events, buyers: v.products } as const;
      if (v.segment !== "subscribers" && chosen[v.segment].length === 0)
        ctx.addIssue({
          code: "custom",
          path: [v.segment === "attendees" ? "events" : v.segment === "buyers" ? "products" : "tiers"],
          message: `Choose at least one ${needs[v.segment]}.`,
          input: v,
        });
      if (v.intent === "schedule" && !parseSouthAfricanDateTime(v.sendAt))
        ctx.addIssue({ code: "custom", path: ["sendAt"], message: "Enter the date and time to send it." });
    }),
  );

export type NewsletterInput = z.infer<typeof newsletterSchema>;
