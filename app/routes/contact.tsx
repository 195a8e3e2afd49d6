import { data, redirect } from "react-router";
import { textFields } from "~/lib/form";
import { ContactDetails } from "~/components/contact/ContactDetails";
import { ContactForm } from "~/components/contact/ContactForm";
import { submitContact } from "~/contact/contact-action.server";
import {
  CONTACT_FAILURE_TOAST,
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  CONTACT_RATE_LIMIT_TOAST,
  CONTACT_SENT_PATH,
  CONTACT_SENT_RESULT,
  type ContactActionResult,
  type ContactValues,
} from "~/contact/contact-form";
import { withoutControlCharacters } from "~/lib/small-form.server";
import { site } from "~/content/site";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/contact";
import { skipAfterContactSend } from "~/contact/revalidation";

export function loader({ request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const subject = query.get("subject") ?? "";
  return {
    subject: withoutControlCharacters(subject).slice(0, CONTACT_LIMITS.subject),
    sent: query.get("sent") === "1",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const result = await submitContact(request, context);
  // Posted as a page (Fetch Metadata: the answer becomes a document), a stored message is followed by
  // a redirect to the page that says so (decision 096): reloading it sends nothing twice, and that page
  // is the same for everyone, so the page cache answers it instead of a render per message. The
  // fetcher's post (JavaScript), a browser that sends no Fetch Metadata, and every refusal (which
  // keeps what was typed) get the result itself, as before.
  if (result.ok && request.headers.get("sec-fetch-dest") === "document") return redirect(CONTACT_SENT_PATH, 303);
  return data(result, { status: result.ok ? 200 : result.toast === CONTACT_RATE_LIMIT_TOAST ? 429 : 400 });
}

/**
 * With JavaScript, a send that never reaches the action (network down, server error) must still end
 * in the spec's failure toast with the visitor's values kept, not in the error page.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs): Promise<ContactActionResult> {
  const form = await request.clone().formData();
  try {
    return await serverAction();
  } catch (error) {
    console.error("Failed to send message", error);
    const values: ContactValues = textFields(form, CONTACT_FIELDS);
    return { ok: false, toast: CONTACT_FAILURE_TOAST, values };
  }
}

export const shouldRevalidate = skipAfterContactSend;

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="container-page py-12 sm:py-16">
      <p className="text-sm font-semibold tracking-widest text-accent uppercase">Say hello</p>
      <h1 className="font-display mt-2 text-4xl text-ink sm:text-5xl">Get in Touch</h1>
      <p className="mt-4 max-w-2xl text-ink-soft">
        Questions about a piece, a styling session or an event? Send us a message and we will reply soon.
      </p>
      <div className="mt-10 grid gap-8 lg:grid-cols-[1fr_1.4fr]">
        <ContactDetails headingId="contact-info-heading" />
        <div className="card p-6 sm:p-8">
          <h2 className="mb-4 font-display text-2xl">Send a Message</h2>
          <ContactForm
            defaultSubject={loaderData.subject}
            result={actionData ?? (loaderData.sent ? CONTACT_SENT_RESULT : null)}
          />
        </div>
      </div>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Contact",
    description: `Contact ${site.name}: questions about pieces, styling consultations, events and memberships.`,
    path: "/contact",
    siteUrl: siteUrlFrom(matches),
  });
