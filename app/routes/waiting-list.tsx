import { useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { FieldError, fieldClass } from "~/components/waitlist/fields";
import { textFields, validateForm } from "~/lib/form";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { joinWaitlistSchema, MAX_WAITLIST_SEATS, WAITLIST_FIELDS } from "~/waitlist/join-schema";
import { findWaitlistTarget, joinWaitlist } from "~/waitlist/lists.server";
import { offerWindowHours } from "~/waitlist/offer-window.server";
import type { Route } from "./+types/waiting-list";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const target = await findWaitlistTarget(context.db, params.optionId, context.clock.now());
  if (!target) throw data({ notFound: true }, { status: 404 });
  const joined = new URL(request.url).searchParams.get("joined") === "1";
  return { target, joined, hours: await offerWindowHours(context.db) };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const now = context.clock.now();
  const target = await findWaitlistTarget(context.db, params.optionId, now);
  if (!target) throw data({ notFound: true }, { status: 404 });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    form = new FormData();
  }
  const values = textFields(form, WAITLIST_FIELDS);
  if (!target.joinable)
    return data(
      { fieldErrors: { form: "Seats are on sale again: buy them from the event's page." }, values },
      { status: 409 },
    );
  const checked = validateForm(joinWaitlistSchema, values);
  if (!checked.ok) return data({ fieldErrors: checked.fieldErrors, values }, { status: 400 });
  const joined = await joinWaitlist(context.db, target, checked.data, now);
  if (!joined.ok) return data({ fieldErrors: joined.fieldErrors, values }, { status: 409 });
  throw redirect(`/waiting-list/${target.optionId}?joined=1`, 303);
}

export default function WaitingListPage({ loaderData, actionData }: Route.ComponentProps) {
  const { target, joined, hours } = loaderData;
  const [checked, setChecked] = useState<{ errors: Record<string, string>; answer: unknown } | null>(null);
  // The browser's own check (the action's schema) until the action answers anew.
  const errors =
    checked && checked.answer === actionData
      ? checked.errors
      : (actionData?.fieldErrors as Record<string, string> | undefined);
  const values = actionData?.values as Record<string, string> | undefined;

  function checkBeforeSending(event: React.FormEvent<HTMLFormElement>) {
    const sent = Object.fromEntries(
      WAITLIST_FIELDS.map((f) => [f, String(new FormData(event.currentTarget).get(f) ?? "")]),
    );
    const parsed = joinWaitlistSchema.safeParse(sent);
    if (parsed.success) return setChecked(null);
    event.preventDefault();
    const found: Record<string, string> = {};
    for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
    setChecked({ errors: found, answer: actionData });
  }
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // Once the messages are drawn, the first field to correct takes the focus.
    const first = checked && WAITLIST_FIELDS.find((f) => checked.errors[f]);
    if (first) (formRef.current?.elements.namedItem(first) as HTMLElement | null)?.focus();
  }, [checked]);
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const described = (name: string) => (errors?.[name] ? `${name}-error` : undefined);

  return (
    <section className="container-page py-10 sm:py-14">
      <Link to={target.pagePath} className="btn-outline min-h-11">
        ← Back to the event
      </Link>
      <h1 className="mt-6 font-display text-4xl break-words text-ink sm:text-5xl">Join the waiting list</h1>
      <p className="mt-3 text-lg break-words text-ink/85">
        {target.itemName}
        {target.sessionText ? `, ${target.sessionText}` : ""} · {formatRand(target.priceCents)} a seat
      </p>
      <div className="mt-8 grid gap-8 lg:grid-cols-[1.3fr_1fr]">
        <div className="card p-6">
          {joined ? (
            <div role="status">
              <h2 className="font-display text-2xl">You are on the waiting list</h2>
              <p className="mt-3 text-ink/85">
                When seats free up, we email the first person in line whose seats fit. When it is your turn, your email
                holds the seats for you for {hours} hours and has a link straight to checkout. Nobody else can buy them
                in that time; if you do not check out, they go to the next person.
              </p>
              <Link to={target.pagePath} className="btn-primary mt-6 min-h-11">
                Back to the event
              </Link>
            </div>
          ) : !target.joinable ? (
            <div role="status">
              <h2 className="font-display text-2xl">Seats are on sale</h2>
              <p className="mt-3 text-ink/85">There are seats you can buy now, so there is no need to wait.</p>
              <Link to={target.pagePath} className="btn-primary mt-6 min-h-11">
                Buy on the event's page
              </Link>
            </div>
          ) : (
            <Form
              ref={formRef}
              method="post"
              noValidate
              onSubmit={checkBeforeSending}
              className="grid gap-4"
              aria-label="Join the waiting list"
            >
              {errors?.form ? (
                <p role="alert" className="font-semibold text-red-800">
                  {errors.form}
                </p>
              ) : null}
              {errors && !errors.form ? (
                <p role="alert" className="font-semibold text-red-800">
                  Please check the fields marked below.
                </p>
              ) : null}
              <label className="block text-sm font-medium text-ink">
                Name
                <input
                  name="name"
                  autoComplete="name"
                  required
                  maxLength={100}
                  defaultValue={values?.name}
                  aria-invalid={errors?.name ? true : undefined}
                  aria-describedby={described("name")}
                  className={fieldClass}
                />
              </label>
              <FieldError id="name-error" message={errors?.name} />
              <label className="block text-sm font-medium text-ink">
                Email
                <input
                  type="email"
                  name="email"
                  autoComplete="email"
                  required
                  maxLength={254}
                  defaultValue={values?.email}
                  aria-invalid={errors?.email ? true : undefined}
                  aria-describedby={described("email")}
                  className={fieldClass}
                />
              </label>
              <FieldError id="email-error" message={errors?.email} />
              <label className="block text-sm font-medium text-ink">
                Seats wanted
                <select
                  name="seats"
                  defaultValue={values?.seats || "1"}
                  aria-invalid={errors?.seats ? true : undefined}
                  aria-describedby={described("seats")}
                  className={fieldClass}
                >
                  {Array.from({ length: MAX_WAITLIST_SEATS }, (_, i) => i + 1).map((n) => (
                    <option key={n} value={n}>
                      {n === 1 ? "1 seat" : `${n} seats`}, {formatRand(target.priceCents * n)}
                    </option>
                  ))}
                </select>
              </label>
              <FieldError id="seats-error" message={errors?.seats} />
              <button type="submit" className="btn-primary w-full sm:w-auto" disabled={sending}>
                {sending ? "Joining..." : "Join the waiting list"}
              </button>
            </Form>
          )}
        </div>
        <section className="card p-6" aria-labelledby="next-heading">
          <h2 id="next-heading" className="font-display text-2xl">
            What happens next
          </h2>
          <ol className="mt-3 list-decimal space-y-2 pl-5 text-ink/85">
            <li>You join the end of the line; nothing is paid now.</li>
            <li>When seats free up, the first person in line whose seats fit gets an email.</li>
            <li>That email holds the seats for {hours} hours and links to checkout with them already held.</li>
            <li>Not bought in time? The seats go to the next person, and we tell you so.</li>
          </ol>
        </section>
      </div>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, params }) =>
  seo({
    title: "Join the waiting list",
    description: "Wait for a seat at a sold-out Honey Bee event or workshop.",
    path: `/waiting-list/${params.optionId}`,
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
