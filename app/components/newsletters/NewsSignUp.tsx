import { useFetcher, useLocation } from "react-router";
import { SIGN_UP_LIMITS, SIGN_UP_WORDING, type SignUpResult } from "~/newsletters/sign-up-words";

const TONES = {
  // On the footer's ink: honey and cream keep their contrast; a problem reads in honey, not red.
  dark: {
    field:
      "mt-1 block w-full min-h-11 rounded-md border border-cream/40 bg-white px-3 py-2 text-ink " +
      "focus:outline-2 focus:outline-offset-2 focus:outline-honey",
    label: "block text-sm font-medium text-cream",
    hint: "text-sm text-cream/80",
    problem: "mt-1 text-sm font-semibold text-honey",
    button: "btn-primary",
  },
  light: {
    field:
      "mt-1 block w-full min-h-11 rounded-md border border-ink/30 bg-white px-3 py-2 text-ink focus:border-ink " +
      "focus:outline-2 focus:outline-offset-2 focus:outline-honey",
    label: "block text-sm font-medium text-ink",
    hint: "text-sm text-ink/80",
    problem: "mt-1 text-sm text-red-800",
    button: "btn-primary",
  },
} as const;

/**
 * The news sign-up (footer and /blog): an optional name and an address, posted to /newsletter/subscribe.
 * With JavaScript the answer shows in place; without it the post lands on that page, which says the same.
 */
export function NewsSignUp({
  form,
  tone,
  labelledBy,
}: {
  form: "footer" | "blog";
  tone: keyof typeof TONES;
  /** The heading that names this form: the footer's and the blog's forms must not share a name (two landmarks). */
  labelledBy: string;
}) {
  const fetcher = useFetcher<SignUpResult>();
  const { pathname } = useLocation();
  const style = TONES[tone];
  const result = fetcher.data;
  const errors = result && !result.ok ? result.fieldErrors : {};
  const values = result && !result.ok ? result.values : {};
  const id = (field: string) => `news-${form}-${field}`;
  if (result?.ok) {
    return (
      <p role="status" className={style.hint}>
        {result.message}
      </p>
    );
  }
  return (
    <fetcher.Form
      method="post"
      action="/newsletter/subscribe"
      noValidate
      className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
      aria-labelledby={labelledBy}
    >
      <input type="hidden" name="form" value={form} />
      <input type="hidden" name="page" value={pathname} />
      <div>
        <label htmlFor={id("name")} className={style.label}>
          What shall we call you? (optional)
        </label>
        <input
          id={id("name")}
          name="name"
          autoComplete="name"
          maxLength={SIGN_UP_LIMITS.name}
          defaultValue={typeof values.name === "string" ? values.name : undefined}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? id("name-error") : undefined}
          className={style.field}
        />
        {errors.name ? (
          <p id={id("name-error")} className={style.problem}>
            {errors.name}
          </p>
        ) : null}
      </div>
      <div>
        {/* Not "Email": a page's own Email field keeps that label to itself. */}
        <label htmlFor={id("email")} className={style.label}>
          E-mail for our news
        </label>
        <input
          id={id("email")}
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={SIGN_UP_LIMITS.email}
          defaultValue={typeof values.email === "string" ? values.email : undefined}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? id("email-error") : undefined}
          className={style.field}
        />
        {errors.email ? (
          <p id={id("email-error")} className={style.problem}>
            {errors.email}
          </p>
        ) : null}
      </div>
      <button type="submit" className={`${style.button} sm:mt-6`} disabled={fetcher.state !== "idle"}>
        {fetcher.state !== "idle" ? "Sending..." : "Sign up"}
      </button>
      <p className={`${style.hint} sm:col-span-3`}>{SIGN_UP_WORDING}</p>
      {errors.form || errors.page ? (
        <p role="alert" className={`${style.problem} sm:col-span-3`}>
          {errors.form ?? errors.page}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
