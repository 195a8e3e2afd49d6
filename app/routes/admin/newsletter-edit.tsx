import { data, Form, Link, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { ErrorSummary, SelectField, TextAreaField, TextField } from "~/components/admin/fields";
import { PhotoPicker, photoPickerErrors } from "~/components/admin/PhotoPicker";
import { SegmentPicker, type SegmentValues } from "~/components/newsletters/SegmentPicker";
import { toSouthAfricanDateTimeLocal } from "~/events/event-schema";
import { textFields, validateForm } from "~/lib/form";
import { seo, siteUrlFrom } from "~/lib/seo";
import { readPhotosFromForm } from "~/media/photos.server";
import { NEWSLETTER_LIMITS, newsletterSchema } from "~/newsletters/newsletter-schema";
import {
  findNewsletter,
  newsletterCounts,
  previewHtml,
  publishedPosts,
  saveNewsletter,
} from "~/newsletters/newsletters-admin.server";
import { countSegment, segmentChoices, SEGMENT_RULES } from "~/newsletters/segments.server";
import { cardValue, shopCardChoices } from "~/newsletters/shop-cards.server";
import { NewsletterCardPreview } from "~/components/newsletters/NewsletterCardPreview";
import type { Route } from "./+types/newsletter-edit";

interface FormValues extends SegmentValues {
  postId: string;
  title: string;
  body: string;
  photos: { src: string; alt: string }[];
  card: string;
  sendAt: string;
}

const NEW: FormValues = {
  postId: "",
  title: "",
  body: "",
  photos: [],
  card: "",
  segment: "subscribers",
  tiers: [],
  events: [],
  products: [],
  sendAt: "",
};

function newsletterId(params: { id?: string }): number | null {
  if (params.id === undefined) return null;
  if (!/^\d{1,9}$/.test(params.id) || Number(params.id) < 1)
    throw data({ error: "Newsletter not found" }, { status: 404 });
  return Number(params.id);
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = newsletterId(params);
  const [choices, posts, cards] = await Promise.all([
    segmentChoices(context.db),
    publishedPosts(context.db),
    shopCardChoices(context.db),
  ]);
  if (id === null) return { id: null, status: "draft" as const, values: NEW, choices, posts, cards, report: null };
  const row = await findNewsletter(context.db, id);
  if (!row) throw data({ error: "Newsletter not found" }, { status: 404 });
  const segment = row.segment;
  const values: FormValues = {
    postId: row.postId ? String(row.postId) : "",
    title: row.title,
    body: row.body,
    photos: row.photos,
    card: cardValue(row.card),
    segment: segment.kind,
    tiers: segment.kind === "tiers" ? segment.tiers : [],
    events: segment.kind === "attendees" ? segment.events : [],
    products: segment.kind === "buyers" ? segment.products.map(String) : [],
    sendAt: toSouthAfricanDateTimeLocal(row.sendAt),
  };
  const counts = (await newsletterCounts(context.db, [id])).get(id)!;
  return {
    id,
    status: row.status,
    values,
    choices,
    posts,
    cards,
    report: {
      ...counts,
      reach: await countSegment(context.db, segment),
      rule: SEGMENT_RULES[segment.kind],
      preview: previewHtml(row),
      photos: row.photos,
      card: row.card,
      title: row.title,
    },
  };
}

const TEXT_FIELDS = ["intent", "postId", "title", "body", "card", "segment", "sendAt"] as const;

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = newsletterId(params);
  const form = await request.formData();
  const strings = (name: string) => form.getAll(name).filter((v): v is string => typeof v === "string");
  const { photos, errors: uploadErrors } = await readPhotosFromForm(context.db, form);
  const values = {
    ...textFields(form, TEXT_FIELDS),
    tiers: strings("tiers"),
    events: strings("events"),
    products: strings("products"),
    photos,
  };
  const checked = validateForm(newsletterSchema, values);
  if (!checked.ok || uploadErrors.length) {
    const fieldErrors = checked.ok ? {} : checked.fieldErrors;
    if (uploadErrors.length) fieldErrors.photos ??= uploadErrors.join(" ");
    return data({ fieldErrors, values }, { status: 400 });
  }
  const saved = await saveNewsletter(context.db, context.config, id, checked.data, context.clock.now());
  if (!saved.ok) return data({ fieldErrors: saved.fieldErrors, values }, { status: 400 });
  throw redirect(`/admin/newsletters/${saved.id}`, { headers: { "Set-Cookie": setToastCookie(saved.toast) } });
}

export default function AdminNewsletterEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { id, status, choices, posts, cards, report } = loaderData;
  const values = (actionData?.values as FormValues | undefined) ?? loaderData.values;
  const errors = actionData?.fieldErrors as Record<string, string> | undefined;
  const busy = useNavigation().state === "submitting";
  const editable = status === "draft" || status === "scheduled";
  return (
    <div className={adminPageClass}>
      <Link to="/admin/newsletters" className="link text-sm">
        ← All newsletters
      </Link>
      <AdminPageHeader title={id === null ? "New newsletter" : loaderData.values.title} />

      {report ? (
        <section aria-labelledby="report-heading" className="card max-w-3xl p-4 sm:p-6">
          <h2 id="report-heading" className="font-display text-xl">
            {editable ? "Who will receive it" : "How it went"}
          </h2>
          {editable ? (
            <p className="mt-2">
              <strong>{report.reach === 1 ? "1 person" : `${report.reach} people`}</strong> ({report.rule.label}).{" "}
              {report.rule.rule}
              {status === "scheduled"
                ? ` Scheduled for ${values.sendAt.replace("T", " at ")} (South African time).`
                : ""}
            </p>
          ) : (
            <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-4">
              <div>
                <dt className="text-sm text-ink-soft">Recipients</dt>
                <dd className="text-2xl font-semibold">{report.recipients}</dd>
              </div>
              <div>
                <dt className="text-sm text-ink-soft">Sent</dt>
                <dd className="text-2xl font-semibold">{report.sent}</dd>
              </div>
              <div>
                <dt className="text-sm text-ink-soft">Failed</dt>
                <dd className="text-2xl font-semibold">{report.failed}</dd>
              </div>
              <div>
                <dt className="text-sm text-ink-soft">Unsubscribed</dt>
                <dd className="text-2xl font-semibold">{report.unsubscribed}</dd>
              </div>
            </dl>
          )}
        </section>
      ) : null}

      {report ? (
        <section aria-labelledby="preview-heading" className="max-w-3xl">
          <h2 id="preview-heading" className="font-display text-xl">
            Preview at phone width
          </h2>
          <div className="mt-3 w-full max-w-[390px] overflow-hidden rounded-2xl border border-ink/20 bg-white p-4 shadow-sm">
            <p className="font-display text-xl font-semibold break-words">{report.title}</p>
            <div
              className={
                "mt-3 space-y-3 break-words leading-relaxed [&_a]:text-accent [&_a]:underline [&_h2]:text-xl " +
                "[&_h2]:font-semibold [&_h3]:text-lg [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 " +
                "[&_ul]:list-disc [&_ul]:pl-6"
              }
              // Rendered by markdown-it with html:false on the server: the text's HTML is escaped, never run.
              dangerouslySetInnerHTML={{ __html: report.preview }}
            />
            {report.photos.map((photo) => (
              <img key={photo.src} src={photo.src} alt={photo.alt} className="mt-3 w-full rounded-xl" />
            ))}
            {report.card ? <NewsletterCardPreview card={report.card} /> : null}
            <p className="mt-4 text-sm text-ink-soft">
              Ends with why she receives it and <span className="underline">Unsubscribe with one click</span>.
            </p>
          </div>
        </section>
      ) : null}

      {editable ? (
        <Form
          method="post"
          encType="multipart/form-data"
          className="card max-w-3xl space-y-5 p-4 sm:p-6"
          key={JSON.stringify(loaderData.values)}
          noValidate
        >
          <ErrorSummary errors={errors} />
          <SelectField
            label="Send a published post"
            name="postId"
            defaultValue={values.postId}
            error={errors?.postId}
            hint="Or leave this on “Write a message” and write it below."
            options={[
              { value: "", label: "Write a message" },
              ...posts.map((p) => ({ value: String(p.id), label: p.title })),
            ]}
          />
          <TextField
            label="Title"
            name="title"
            defaultValue={values.title}
            error={errors?.title}
            maxLength={NEWSLETTER_LIMITS.title}
            hint="The email's subject and heading."
          />
          <TextAreaField
            label="Text"
            name="body"
            defaultValue={values.body}
            error={errors?.body}
            rows={12}
            maxLength={NEWSLETTER_LIMITS.body}
            hint="The blog's formatting: blank lines between paragraphs, ## for a heading, - for a list, [words](link) for a link."
          />
          <PhotoPicker
            label="Photos (up to 3)"
            max={NEWSLETTER_LIMITS.photos}
            initial={values.photos}
            {...photoPickerErrors(errors, values.photos)}
          />
          <SelectField
            label="A card from the shop"
            name="card"
            defaultValue={values.card}
            error={errors?.card}
            hint="Shows the piece or workshop with its photo, price and a link to its page."
            options={[
              { value: "", label: "No card" },
              ...cards.products.map((c) => ({ value: c.value, label: `Product: ${c.label}` })),
              ...cards.events.map((c) => ({ value: c.value, label: `Event: ${c.label}` })),
            ]}
          />
          <SegmentPicker choices={choices} values={values} errors={errors} />
          <TextField
            label="Send at (South African time)"
            name="sendAt"
            type="datetime-local"
            defaultValue={values.sendAt}
            error={errors?.sendAt}
            hint="Only for Schedule; Send now goes at once."
          />
          <div className="flex flex-wrap gap-3">
            <button type="submit" name="intent" value="save" className="btn-outline" disabled={busy}>
              Save draft
            </button>
            <button type="submit" name="intent" value="test" className="btn-outline" disabled={busy}>
              Send a test to me
            </button>
            <button type="submit" name="intent" value="schedule" className="btn-outline" disabled={busy}>
              Schedule
            </button>
            <button type="submit" name="intent" value="send" className="btn-primary" disabled={busy}>
              Send now
            </button>
          </div>
        </Form>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    title: loaderData?.id ? `Newsletter: ${loaderData.values.title}` : "New newsletter",
    description: "Write a newsletter, choose who receives it, test it and send it.",
    path: "/admin/newsletters",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
