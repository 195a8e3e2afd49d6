// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";

/**
 * The owner's sign-in form. Any text is accepted here, an empty one included: a wrong password is
 * the login check's answer (and counts towards the lockout), not a form error.
 */
export const loginSchema = z.object({ password: z.string() });

export const LOGIN_FIELDS = ["password"] as const;
