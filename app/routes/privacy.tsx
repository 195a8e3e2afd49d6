import { Link } from "react-router";
import { informationRegulator, retention } from "~/content/privacy";
import { site } from "~/content/site";
import { seo, siteUrlFrom } from "~/lib/seo";
import { currentSiteSettings } from "~/settings/site-settings.server";
import type { Route } from "./+types/privacy";

/** The privacy notice, made from the shop's settings: whoever she names in Settings is who people reach. */
export async function loader({ context }: Route.LoaderArgs) {
  const settings = await currentSiteSettings(context.db, context.config.mail.ownerEmail);
  return {
    shop: { name: site.name, email: settings.email, phone: settings.phone, location: settings.location },
  };
}

const h2 = "mt-10 text-2xl font-semibold";

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { shop } = loaderData;
  return (
    <article className="container-page max-w-3xl py-12 sm:py-16">
      <h1 className="text-4xl font-semibold sm:text-5xl">Privacy</h1>
      <p className="mt-4 text-lg text-ink-soft">
        How {shop.name} looks after your personal information, as South Africa&apos;s Protection of Personal Information
        Act (POPIA) asks.
      </p>

      <h2 className={h2}>Who is responsible</h2>
      <p className="mt-3">
        {shop.name} is the responsible party for the information on this site. Our information officer is the owner,
        reachable at{" "}
        <a href={`mailto:${shop.email}`} className="link break-all">
          {shop.email}
        </a>{" "}
        or {shop.phone} ({shop.location}).
      </p>

      <h2 className={h2}>What we collect and why</h2>
      <ul className="mt-3 list-disc space-y-2 pl-6">
        <li>
          <strong>When you order or book:</strong> your name, email, phone and address, to take payment (card details go
          to our payment provider, never to us), post your order, send your receipt and tickets, and keep our books.
        </li>
        <li>
          <strong>When you join a membership:</strong> your name, email, phone and plan, to give you its benefits and
          its posts, and to remind you before it is due.
        </li>
        <li>
          <strong>When you write to us:</strong> your name, email and message, to answer you.
        </li>
        <li>
          <strong>When you visit:</strong> which pages are seen, counted without cookies or your IP address, to know
          what people look for.
        </li>
      </ul>
      <p className="mt-3">
        We do not sell or share your information, except with those who carry out our work for us: the payment provider
        and our email service.
      </p>

      <h2 className={h2}>How long we keep it</h2>
      <dl className="mt-3 space-y-3">
        {retention.map((r) => (
          <div key={r.what}>
            <dt className="font-semibold">{r.what}</dt>
            <dd className="text-ink-soft">{r.how}</dd>
          </div>
        ))}
      </dl>

      <h2 className={h2}>Your rights, and how to use them</h2>
      <ul className="mt-3 list-disc space-y-2 pl-6">
        <li>
          <strong>See what we hold about you, and download it:</strong> on{" "}
          <Link to="/your-data" className="link">
            Your data
          </Link>{" "}
          (we email you a link), or on{" "}
          <Link to="/account" className="link">
            your membership page
          </Link>{" "}
          if you are a member.
        </li>
        <li>
          <strong>Have it corrected:</strong> members change their details on their membership page; anyone may write to
          us at {shop.email}.
        </li>
        <li>
          <strong>Have it deleted:</strong> &quot;Delete my data&quot; on the same page. It happens 7 days later, so a
          mistake can be undone from the email we send; the amounts, dates and items of your orders stay for our books
          without your name. You can also ask us by phone.
        </li>
        <li>
          <strong>Object or complain:</strong> tell us first if you can. You may also complain to the Information
          Regulator.
        </li>
      </ul>

      <h2 className={h2}>The Information Regulator</h2>
      <address className="mt-3 not-italic">
        <p className="font-semibold">{informationRegulator.name}</p>
        <p>{informationRegulator.address}</p>
        <p>{informationRegulator.postal}</p>
        <p>
          Complaints, on its eServices Portal:{" "}
          <a href={informationRegulator.complaintsPortal} className="link break-words" rel="noopener noreferrer">
            {informationRegulator.complaintsPortal.replace("https://", "")}
          </a>
        </p>
        <p>
          Or by email:{" "}
          <a href={`mailto:${informationRegulator.complaintsEmail}`} className="link break-words">
            {informationRegulator.complaintsEmail}
          </a>
        </p>
        <p>
          Phone:{" "}
          <a href={`tel:+27${informationRegulator.phone.replace(/\s/g, "").slice(1)}`} className="link">
            {informationRegulator.phone}
          </a>
        </p>
        <p>
          Enquiries:{" "}
          <a href={`mailto:${informationRegulator.enquiriesEmail}`} className="link break-all">
            {informationRegulator.enquiriesEmail}
          </a>
        </p>
        <p>
          <a href={informationRegulator.website} className="link" rel="noopener noreferrer">
            {informationRegulator.website.replace("https://", "")}
          </a>
        </p>
      </address>
    </article>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Privacy",
    description:
      "How Honey Bee Sustainable Fashion looks after your personal information, and your rights under POPIA.",
    path: "/privacy",
    siteUrl: siteUrlFrom(matches),
  });
