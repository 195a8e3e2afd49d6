// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { isOneLine } from "~/lib/storable-text";

export const GIFT_NOTE_MAX = 200;

/** The owner's "Extend by a month" form: a month free needs a note saying why, for the member's history. */
export const giftSchema = z.object({
  note: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Write a note saying why this month is a gift, e.g. Thank-you for helping at the market."),
      z.maxLength(GIFT_NOTE_MAX, `The note must be at most ${GIFT_NOTE_MAX} characters.`),
      z.refine(isOneLine, "The note must be one line of text."),
    ),
});

export type GiftInput = z.infer<typeof giftSchema>;

/** Every form on the owner's member page, told apart by its `intent`; an unknown one asks for an action. */
export const memberActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("gift"), note: giftSchema.shape.note }),
    z.object({ intent: z.literal("cancel") }),
    z.object({ intent: z.literal("resend") }),
    z.object({
      intent: z.literal("pause"),
      months: z.enum(["1", "2", "3"], { error: "Choose how long to pause: one, two or three months." }),
    }),
    z.object({ intent: z.literal("resume") }),
  ],
  { error: "Choose an action." },
);

export const MEMBER_ACTION_FIELDS = ["intent", "note", "months"] as const;
