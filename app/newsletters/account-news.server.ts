import { eq } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import { members } from "~/db/schema";
import { validateForm } from "~/lib/form";
import { NEWS_BOX_FIELD, newsBoxSchema } from "./news-choice-schema";
import { NEWS_CONSENT_WORDING } from "./sign-up-schema";
import { CONFIRMED_BY, setNewsConsent } from "./subscriptions.server";
import * as z from "zod/mini";

const accountNewsSchema = z.object({ news: newsBoxSchema });

export type AccountNewsResult =
  | { intent: "news"; ok: true; message: string }
  | { intent: "news"; ok: false; message: string; errors: Record<string, string> };

/**
 * The box on /account: ticked gives consent, unticked withdraws it. She signed in by a link to her
 * address, so no confirmation email is needed; a change is kept as evidence, no change records nothing.
 */
export async function saveAccountNews(
  context: Pick<AppContext, "db" | "config" | "clock">,
  memberId: number,
  form: FormData,
): Promise<{ status: number; result: AccountNewsResult }> {
  const value = form.get(NEWS_BOX_FIELD);
  const valid = validateForm(accountNewsSchema, { news: typeof value === "string" ? value : undefined });
  if (!valid.ok) {
    const message = valid.fieldErrors.news ?? "Please tick the box, or leave it empty.";
    return { status: 400, result: { intent: "news", ok: false, message, errors: valid.fieldErrors } };
  }
  const [member] = await context.db
    .select({ email: members.email, name: members.name })
    .from(members)
    .where(eq(members.id, memberId));
  if (!member)
    return { status: 404, result: { intent: "news", ok: false, message: "Please sign in again.", errors: {} } };
  const wants = valid.data.news === "on";
  await setNewsConsent(
    context.db,
    context.config.sessionSecret,
    member,
    wants,
    { wording: NEWS_CONSENT_WORDING, form: "account", page: "/account" },
    CONFIRMED_BY.account,
    context.clock.now(),
  );
  return {
    status: 200,
    result: {
      intent: "news",
      ok: true,
      message: wants
        ? "Saved: we will send you news of new pieces and workshops."
        : "Saved: we will not email you our news or the members' posts; you can still read them on the blog.",
    },
  };
}
