import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { ACCOUNT_LIMITS } from "~/memberships/account-schema";

export const fieldClass =
  "mt-1 block w-full min-h-11 rounded-md border border-ink/30 bg-white px-3 py-2 text-ink focus:border-ink " +
  "focus:outline-2 focus:outline-offset-2 focus:outline-honey";
export const labelClass = "block text-sm font-medium text-ink";

/** A message after a form: a polite status, or an alert for a problem. */
export function Notice({ tone = "info", children }: { tone?: "info" | "problem"; children: ReactNode }) {
  return tone === "problem" ? (
    <p role="alert" className="rounded-xl border border-red-800/40 bg-red-50 px-4 py-3 text-red-900">
      {children}
    </p>
  ) : (
    <p role="status" className="rounded-xl border border-honey-dark/50 bg-cream px-4 py-3 text-ink">
      {children}
    </p>
  );
}

/**
 * The answer to asking for an emailed link (sign-in, your data): what was sent, or the form again (the
 * children) under what went wrong; a field's own message stays on its field.
 */
export function LinkRequestAnswer({
  asked,
  children,
}: {
  asked: { ok: boolean; message?: string; errors?: unknown } | undefined;
  children: ReactNode;
}) {
  if (asked?.ok) {
    return (
      <div className="mt-6">
        <Notice>{asked.message}</Notice>
      </div>
    );
  }
  return (
    <>
      {asked && !asked.errors ? (
        <div className="mt-6">
          <Notice tone="problem">{asked.message}</Notice>
        </div>
      ) : null}
      {children}
    </>
  );
}

/**
 * The one-field form that asks for a sign-in link; posts to /account from wherever it is shown, or to
 * `action` with the path the link should return to (the checkout's "Sign in for your price").
 */
export function SignInLinkForm({
  email,
  error,
  sending,
  action = "/account",
  returnTo,
}: {
  email?: string;
  error?: string;
  sending?: boolean;
  action?: string;
  returnTo?: string;
}) {
  return (
    <Form method="post" action={action} noValidate className="mt-6 grid gap-4" aria-label="Email me a sign-in link">
      <input type="hidden" name="intent" value="request-link" />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <AccountField
        id="sign-in-email"
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        maxLength={ACCOUNT_LIMITS.email}
        defaultValue={email}
        error={error}
        hint="The address you used when you joined."
      />
      <button type="submit" className="btn-primary w-full sm:w-auto sm:justify-self-start" disabled={sending}>
        {sending ? "Sending..." : "Email me a sign-in link"}
      </button>
    </Form>
  );
}

/** A labelled, required text field with its message (or hint) tied to it for screen readers. */
export function AccountField(props: {
  id: string;
  name: string;
  label: string;
  type?: "text" | "email" | "tel";
  autoComplete: string;
  maxLength: number;
  defaultValue?: string;
  error?: string;
  hint?: string;
}) {
  const { id, error, hint } = props;
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {props.label}
      </label>
      <input
        id={id}
        type={props.type ?? "text"}
        name={props.name}
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        required
        defaultValue={props.defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={fieldClass}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-ink-soft">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** What an /account page's error boundary shows: what went wrong, and the way back. */
export function AccountProblem({ title, text, linkLabel }: { title: string; text: string; linkLabel: string }) {
  return (
    <AccountCard title={title}>
      <p className="mt-3 text-ink/85">{text}</p>
      <Link to="/account" className="btn-primary mt-6">
        {linkLabel}
      </Link>
    </AccountCard>
  );
}

/** The frame of every /account page: the public site's look, one card. */
export function AccountCard({ title, children, wide }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <section className="container-page py-10 sm:py-14">
      <div className={`card mx-auto p-6 sm:p-10 ${wide ? "max-w-3xl" : "max-w-xl"}`}>
        <p className="text-sm font-semibold tracking-wide text-accent uppercase">Membership</p>
        <h1 className="font-display mt-2 text-3xl sm:text-4xl">{title}</h1>
        {children}
      </div>
    </section>
  );
}
