import type { AppContext } from "~/context.server";
import { readSmallForm } from "~/lib/small-form.server";
import { signInRequestSchema } from "~/memberships/account-schema";
import { DATA_LINK_MINUTES, requestDataLink } from "./data-access.server";

/** Room for the largest "Your data" form, percent-encoded, and nothing more. */
const MAX_FORM_BYTES = 2048;

export const readDataForm = (request: Request) => readSmallForm(request, MAX_FORM_BYTES);

export type DataFormResult =
  | { intent: string; ok: true; message: string }
  | { intent: string; ok: false; message: string; errors?: Record<string, string>; values?: Record<string, string> };

export const DATA_FORM_UNREADABLE = "We could not read that form. Please try again.";
export const DATA_LINK_LIMITED = "Too many links were asked for. Please wait 15 minutes and try again.";

/** The same words whether or not the shop knows the address. */
export const dataLinkSentMessage = (email: string) =>
  `If we hold anything under ${email}, a link to it is on its way. It works once, for ${DATA_LINK_MINUTES} minutes.`;

/** "Email me a link to my data": the address checked as the sign-in form checks it, the limits, one answer. */
export async function askForDataLink(
  context: Pick<AppContext, "db" | "config" | "clock" | "clientIp">,
  form: FormData,
): Promise<{ status: number; result: DataFormResult }> {
  const raw = form.get("email");
  const values = { email: typeof raw === "string" ? raw : "" };
  const parsed = signInRequestSchema.safeParse(values);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? DATA_FORM_UNREADABLE;
    return { status: 400, result: { intent: "request-link", ok: false, message, errors: { email: message }, values } };
  }
  if ((await requestDataLink(context, parsed.data.email)) === "limited")
    return { status: 429, result: { intent: "request-link", ok: false, message: DATA_LINK_LIMITED, values } };
  return { status: 200, result: { intent: "request-link", ok: true, message: dataLinkSentMessage(parsed.data.email) } };
}
