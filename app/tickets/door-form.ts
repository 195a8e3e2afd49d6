// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";

/** The device id a form post without JavaScript checks in as. */
export const FORM_DEVICE = "door-form";

const text = (tidy: (typed: string) => string) => z.pipe(z.string(), z.transform(tidy));

/**
 * The door page's form posts without JavaScript: "undo", or a code (or a name) to admit or search.
 * Nothing is refused here: what was typed is trimmed and cut to size, and the door answers in words.
 */
export const doorFormSchema = z.object({
  intent: z.pipe(
    z.string(),
    z.transform((typed): "undo" | "scan" => (typed === "undo" ? "undo" : "scan")),
  ),
  deviceId: text((typed) => typed.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64) || FORM_DEVICE),
  code: text((typed) => typed.slice(0, 300).trim()),
  eventId: z.pipe(
    z.string(),
    z.transform((typed) => typed.slice(0, 100) || undefined),
  ),
});

export const DOOR_FORM_FIELDS = ["intent", "deviceId", "code", "eventId"] as const;
