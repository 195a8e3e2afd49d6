import { Form } from "react-router";
import { Notice } from "~/components/account/account-ui";
import { NEWS_BOX_FIELD } from "~/newsletters/news-choice-schema";
import { NEWS_CONSENT_WORDING } from "~/newsletters/sign-up-words";

type Result = { intent: string; ok: boolean; message: string } | undefined;

/** /account's news box: unticked unless she said yes; saving an untick withdraws the consent. */
export function AccountNewsForm({ subscribed, result, busy }: { subscribed: boolean; result: Result; busy: boolean }) {
  const shown = result?.intent === "news" ? result : undefined;
  return (
    <section aria-labelledby="news-heading" className="mt-8 grid gap-3">
      <h2 id="news-heading" className="text-xl font-semibold">
        News by email
      </h2>
      {shown ? <Notice tone={shown.ok ? "info" : "problem"}>{shown.message}</Notice> : null}
      <Form method="post" className="grid gap-3">
        <label className="flex min-h-11 items-center gap-3">
          <input
            type="checkbox"
            name={NEWS_BOX_FIELD}
            defaultChecked={subscribed}
            key={String(subscribed)}
            className="size-5 accent-ink"
          />
          <span>{NEWS_CONSENT_WORDING}</span>
        </label>
        <button type="submit" name="intent" value="news" className="btn-outline sm:justify-self-start" disabled={busy}>
          Save my choice
        </button>
      </Form>
    </section>
  );
}
