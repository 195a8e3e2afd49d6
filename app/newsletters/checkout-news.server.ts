import type { AppContext } from "~/context.server";
import { NEWS_BOX_FIELD, newsBoxSchema } from "./news-choice-schema";
import { NEWS_CONSENT_WORDING } from "./sign-up-schema";
import { requestSubscription } from "./subscriptions.server";

/**
 * The checkout form's news box, as every checkout reads it (one item, a bag, a waiting-list offer):
 * ticked, unticked, or a refusal of anything else with the field's message.
 */
export function readNewsBox(form: FormData): { ok: true; ticked: boolean } | { ok: false; message?: string } {
  const news = newsBoxSchema.safeParse(form.get(NEWS_BOX_FIELD) ?? undefined);
  return news.success
    ? { ok: true, ticked: news.data === "on" }
    : { ok: false, message: news.error.issues[0]?.message };
}

/**
 * The ticked box, once the buyer is on her way to the payment page: the footer's double opt-in (a past
 * customer is subscribed at once). A failure is logged and never stops the payment.
 */
export async function subscribeFromCheckout(
  context: Pick<AppContext, "db" | "config">,
  customer: { email: string; firstName: string; lastName: string },
  page: string,
  now: Date,
): Promise<void> {
  await requestSubscription(
    context.db,
    context.config,
    { email: customer.email, name: `${customer.firstName} ${customer.lastName}` },
    { wording: NEWS_CONSENT_WORDING, form: "checkout", page },
    now,
  ).catch((error) => console.error(`[news] checkout consent not recorded: ${(error as Error).message}`));
}
