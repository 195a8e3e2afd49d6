import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { getAnalyticsSessionId, trackEvent } from "~/analytics/track";
import {
  CONTACT_LIMITS,
  type ContactActionResult,
  type ContactToast,
  type ContactValues,
} from "~/contact/contact-form";
import { ActionToast, toast } from "~/components/ui/toast";

interface ContactFormProps {
  /** Pre-fills the subject (e.g. from /contact?subject=...). */
  defaultSubject?: string;
  /** The /contact action's result when the page itself was posted to (no JavaScript). */
  result?: ContactActionResult | null;
}

const fieldClass =
  "mt-1 block w-full min-h-11 rounded-xl border border-ink/30 bg-white px-3 py-2 text-ink focus:border-ink " +
  "focus:outline-2 focus:outline-offset-2 focus:outline-honey";
const labelClass = "block text-sm font-semibold text-ink";

/** A label tied to its control by id: the control's name stays "Message", not "Message" plus what was typed. */
function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
    </div>
  );
}

type ContactCheck = (values: Partial<ContactValues>) => ContactToast | null;

/**
 * The browser's check before sending uses the form's one schema (zod/mini, ~8 KB gzipped). Most
 * visitors of the home page never touch its form, so the schema is fetched when one starts on it
 * (focus, pointer or key inside the form), not with the page: the home page stays within its
 * first-load budget (issue 22, decision 089). The import is shared, so it is fetched once.
 */
let contactCheck: Promise<ContactCheck> | null = null;
const loadContactCheck = () => (contactCheck ??= import("~/contact/contact-schema").then((m) => m.contactErrorToast));

/**
 * The contact form, usable on any page: it posts to the /contact action through a fetcher, and
 * without JavaScript the same form is a plain POST to /contact that re-renders that page.
 */
export function ContactForm({ defaultSubject = "", result }: ContactFormProps) {
  const fetcher = useFetcher<ContactActionResult>();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [sessionId, setSessionId] = useState("");
  const sending = fetcher.state !== "idle";
  const outcome = fetcher.data ?? result ?? null;
  const kept = outcome && !outcome.ok ? outcome.values : undefined;

  useEffect(() => {
    // The same sessionStorage id (analytics_session_id) that analytics events carry.
    setSessionId(getAnalyticsSessionId());
  }, []);

  const lastHandled = useRef<ContactActionResult | undefined>(undefined);
  // The subject as sent: after success the form is reset, so it is captured at submit time.
  const sentSubject = useRef("");
  /** The check, once fetched: until then a send waits for it. */
  const check = useRef<ContactCheck | null>(null);
  const fetchCheck = () => {
    if (!check.current) void loadContactCheck().then((loaded) => (check.current = loaded));
  };
  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state !== "idle" || !data || data === lastHandled.current) return;
    lastHandled.current = data;
    toast(data.toast);
    if (data.ok) {
      trackEvent("contact_form_submit", {
        pagePath: "/contact",
        metadata: { sessionId, subject: sentSubject.current },
      });
      formRef.current?.reset();
    }
  }, [fetcher.state, fetcher.data, sessionId]);

  function checkBeforeSending(event: React.FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const values = Object.fromEntries(new FormData(form)) as unknown as ContactValues;
    sentSubject.current = values.subject ?? "";
    if (check.current) {
      const problem = check.current(values);
      if (problem) {
        event.preventDefault();
        toast(problem);
      }
      return;
    }
    // Sent before the check arrived (a pasted message, Enter at once): check when it has, then send.
    event.preventDefault();
    loadContactCheck().then(
      (loaded) => {
        check.current = loaded;
        const problem = loaded(values);
        if (problem) toast(problem);
        else void fetcher.submit(form);
      },
      // The check could not be fetched (offline): the server checks every message anyway.
      () => void fetcher.submit(form),
    );
  }

  const value = (name: keyof ContactValues, fallback = "") => kept?.[name] ?? fallback;

  return (
    <>
      {/* Without JavaScript the server renders the outcome here; with it, the effect above toasts. */}
      {!fetcher.data && result ? <ActionToast message={result.toast} /> : null}
      <fetcher.Form
        ref={formRef}
        method="post"
        action="/contact"
        noValidate
        onSubmit={checkBeforeSending}
        onFocus={fetchCheck}
        onPointerDown={fetchCheck}
        className="grid gap-4"
        // A new key after a non-JS success clears the fields; failures keep them.
        key={outcome?.ok ? "sent" : "editing"}
      >
        <input type="hidden" name="sessionId" value={sessionId} />
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label>
            Website
            <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
          </label>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={`${id}-first`} label="First Name">
            <input
              id={`${id}-first`}
              name="firstName"
              autoComplete="given-name"
              maxLength={CONTACT_LIMITS.name}
              required
              defaultValue={value("firstName")}
              className={fieldClass}
            />
          </Field>
          <Field id={`${id}-last`} label="Last Name">
            <input
              id={`${id}-last`}
              name="lastName"
              autoComplete="family-name"
              maxLength={CONTACT_LIMITS.name}
              required
              defaultValue={value("lastName")}
              className={fieldClass}
            />
          </Field>
        </div>
        <Field id={`${id}-email`} label="Email">
          <input
            id={`${id}-email`}
            type="email"
            name="email"
            autoComplete="email"
            maxLength={CONTACT_LIMITS.email}
            required
            defaultValue={value("email")}
            className={fieldClass}
          />
        </Field>
        <Field id={`${id}-subject`} label="Subject">
          <input
            id={`${id}-subject`}
            name="subject"
            maxLength={CONTACT_LIMITS.subject}
            required
            defaultValue={value("subject", defaultSubject)}
            className={fieldClass}
          />
        </Field>
        <Field id={`${id}-message`} label="Message">
          <textarea
            id={`${id}-message`}
            name="message"
            rows={6}
            maxLength={CONTACT_LIMITS.message}
            required
            defaultValue={value("message")}
            className={fieldClass}
          />
        </Field>
        <button type="submit" className="btn-primary min-h-11 w-full sm:w-auto" disabled={sending}>
          {sending ? "Sending..." : "Send Message"}
        </button>
      </fetcher.Form>
    </>
  );
}
