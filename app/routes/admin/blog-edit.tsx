import { data, Form, Link, redirect, useNavigation } from "react-router";
import { archiveOrDelete } from "~/admin/archive-or-delete.server";
import { setToastCookie } from "~/admin/flash-toast.server";
import { textFields, validateForm } from "~/lib/form";
import { findPostForAdmin, removePost, savePost, setPostPublished, unknownTierSlugs } from "~/blog/post-admin.server";
import { POST_TEXT_FIELDS, postAdminSchema } from "~/blog/post-admin-schema";
import { DEFAULT_POST_AUTHOR, DEFAULT_POST_CATEGORY } from "~/blog/post-options";
import { listTierChoices } from "~/memberships/members-admin.server";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { AudienceFields } from "~/components/admin/AudienceFields";
import { ErrorSummary, TextAreaField, TextField } from "~/components/admin/fields";
import { PhotoPicker, photoPickerErrors } from "~/components/admin/PhotoPicker";
import { readPhotosFromForm } from "~/media/photos.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/blog-edit";
import { photosWithAlts } from "~/media/photo-schema";
import { AdminNotFound, ConfirmDelete } from "~/components/admin/ConfirmDelete";
import { EmailReadersBox, EmailReadersButton } from "~/components/newsletters/EmailPostToReaders";
import { emailPostToReaders, postEmailed, postReach } from "~/newsletters/post-newsletter.server";

interface FormValues {
  title: string;
  excerpt: string;
  author: string;
  category: string;
  content: string;
  photos: { src: string; alt: string }[];
  audience: string;
  audienceTiers: string[];
}

const NEW_POST: FormValues = {
  title: "",
  excerpt: "",
  author: DEFAULT_POST_AUTHOR,
  category: DEFAULT_POST_CATEGORY,
  content: "",
  photos: [],
  audience: "public",
  audienceTiers: [],
};

/** The post's id from the URL, or null on /admin/blog/new; a malformed id is a 404. */
function postId(params: { id?: string }): number | null {
  if (params.id === undefined) return null;
  if (!/^\d{1,9}$/.test(params.id) || Number(params.id) < 1) throw data({ error: "Post not found" }, { status: 404 });
  return Number(params.id);
}

const notFound = () => data({ error: "Post not found" }, { status: 404 });

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = postId(params);
  const tiers = (await listTierChoices(context.db)).map((t) => ({ slug: t.slug, name: t.name }));
  if (id === null) return { id: null, slug: null, published: false, values: NEW_POST, tiers, email: null };
  const row = await findPostForAdmin(context.db, id);
  if (!row) throw notFound();
  const emailed = await postEmailed(context.db, row.id);
  const email = { reach: await postReach(context.db, row), audience: row.audience, emailed };
  const values: FormValues = {
    title: row.title,
    excerpt: row.excerpt,
    author: row.author,
    category: row.category,
    content: row.content,
    photos: row.image ? photosWithAlts([row.image], [row.imageAlt ?? ""], row.title) : [],
    audience: row.audience,
    audienceTiers: row.audienceTiers,
  };
  return { id: row.id, slug: row.slug, published: row.published, values, tiers, email };
}

/** Who may read the post, as posted: the audience and every ticked plan. */
function audienceFields(form: FormData) {
  const audience = form.get("audience");
  return {
    audience: typeof audience === "string" ? audience : "",
    audienceTiers: form.getAll("audienceTiers").filter((v): v is string => typeof v === "string"),
  };
}

/** Emails the just-published post when the owner ticked the box, and says so in the toast. */
async function emailIfTicked(
  form: FormData,
  context: Route.ActionArgs["context"],
  id: number,
  toast: { title: string; description: string },
  now: Date,
) {
  if (form.get("emailReaders") !== "on") return toast;
  const sent = await emailPostToReaders(context.db, context.config.siteUrl, id, now);
  return sent.ok
    ? { title: `${toast.title} and emailed`, description: `${toast.description} ${emailedTo(sent.reach)}` }
    : { title: toast.title, description: `${toast.description} Not emailed: ${sent.message}` };
}

const emailedTo = (n: number) => `The email goes to ${n === 1 ? "1 reader" : `${n} readers`}, a few each second.`;

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = postId(params);
  const form = await request.formData();
  const { intent } = textFields(form, ["intent"]);
  const now = context.clock.now();

  if (intent === "email-readers") {
    if (id === null) throw notFound();
    const sent = await emailPostToReaders(context.db, context.config.siteUrl, id, now);
    if (!sent.ok) return data({ emailError: sent.message }, { status: 400 });
    const toast = { title: "Emailing the post", description: emailedTo(sent.reach) };
    throw redirect(`/admin/blog/${id}`, { headers: { "Set-Cookie": setToastCookie(toast) } });
  }

  if (intent === "publish" || intent === "unpublish" || intent === "delete") {
    if (intent === "delete") {
      return archiveOrDelete({
        id,
        notFound: "Post not found",
        remove: (found) => removePost(context.db, found, now),
        listPath: "/admin/blog",
        toast: (removed) => ({ title: "Post deleted", description: `"${removed.title}" is gone from the blog.` }),
      });
    }
    if (id === null) throw notFound();
    const changed = await setPostPublished(context.db, id, intent === "publish", now);
    if (!changed) throw notFound();
    const toast =
      intent === "publish"
        ? await emailIfTicked(
            form,
            context,
            id,
            { title: "Post published", description: `"${changed.title}" is on the blog now.` },
            now,
          )
        : {
            title: "Post unpublished",
            description: `"${changed.title}" is a draft again: off the blog and its address.`,
          };
    throw redirect(`/admin/blog/${id}`, { headers: { "Set-Cookie": setToastCookie(toast) } });
  }
  if (intent !== "save" && intent !== "save-publish") {
    const fieldErrors: Record<string, string> = { form: "Unknown action: nothing was changed." };
    return data(
      { fieldErrors, values: { ...textFields(form, POST_TEXT_FIELDS), ...audienceFields(form), photos: [] } },
      { status: 400 },
    );
  }

  const { photos, errors: uploadErrors } = await readPhotosFromForm(context.db, form);
  const values = { ...textFields(form, POST_TEXT_FIELDS), ...audienceFields(form), photos };
  const checked = validateForm(postAdminSchema, values);
  const unknownTiers =
    checked.ok && checked.data.audience === "tiers"
      ? await unknownTierSlugs(context.db, checked.data.audienceTiers)
      : [];
  if (!checked.ok || uploadErrors.length || unknownTiers.length) {
    const fieldErrors = checked.ok ? {} : checked.fieldErrors;
    if (uploadErrors.length) fieldErrors.photos ??= uploadErrors.join(" ");
    if (unknownTiers.length) fieldErrors.audienceTiers ??= "Choose plans from the list.";
    return data({ fieldErrors, values }, { status: 400 });
  }
  const saved = await savePost(context.db, { id, input: checked.data, publish: intent === "save-publish", now });
  if (!saved) throw notFound();
  const toast = saved.created
    ? saved.published
      ? await emailIfTicked(
          form,
          context,
          saved.id,
          { title: "Post published", description: "It is on the blog now." },
          now,
        )
      : { title: "Draft saved", description: "Publish it when it is ready." }
    : {
        title: "Post saved",
        description: saved.published ? "The blog shows the changes now." : "It is still a draft.",
      };
  throw redirect(`/admin/blog/${saved.id}`, { headers: { "Set-Cookie": setToastCookie(toast) } });
}

export default function AdminBlogEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { id, slug, published } = loaderData;
  const values =
    ((actionData && "values" in actionData ? actionData.values : undefined) as FormValues | undefined) ??
    loaderData.values;
  const errors = actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined;
  const emailError = actionData && "emailError" in actionData ? actionData.emailError : undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const title = id === null ? "New post" : `Edit ${loaderData.values.title}`;
  return (
    <div className={adminPageClass}>
      <Link to="/admin/blog" className="link text-sm">
        ← All posts
      </Link>
      <AdminPageHeader title={title}>
        {slug && published ? (
          <a href={`/blog/${slug}`} className="btn-outline min-h-11 px-4 py-1.5 text-sm">
            View on the blog
          </a>
        ) : null}
      </AdminPageHeader>
      {id !== null ? (
        <p className="text-ink-soft">
          Status: <strong className="text-ink">{published ? "Published" : "Draft"}</strong>
          {published ? null : " (not on the site)"}
        </p>
      ) : null}

      {/* A key per saved version, so the fields show what was stored after a save. */}
      <Form
        method="post"
        encType="multipart/form-data"
        className="card max-w-3xl space-y-5 p-4 sm:p-6"
        key={JSON.stringify(loaderData.values)}
        noValidate
      >
        <ErrorSummary errors={errors} />
        <TextField
          label="Title"
          name="title"
          defaultValue={values.title}
          error={errors?.title}
          required
          maxLength={200}
        />
        <TextAreaField
          label="Excerpt"
          name="excerpt"
          defaultValue={values.excerpt}
          error={errors?.excerpt}
          required
          rows={3}
          hint="One or two sentences shown on the blog's cards."
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Author"
            name="author"
            defaultValue={values.author}
            error={errors?.author}
            maxLength={100}
            hint={`Empty: ${DEFAULT_POST_AUTHOR}`}
          />
          <TextField
            label="Category"
            name="category"
            defaultValue={values.category}
            error={errors?.category}
            maxLength={60}
            hint={`Empty: ${DEFAULT_POST_CATEGORY}`}
          />
        </div>
        <TextAreaField
          label="Content"
          name="content"
          defaultValue={values.content}
          error={errors?.content}
          required
          rows={14}
          hint="Markdown: blank lines between paragraphs, ## for a heading, - for a list."
        />
        <AudienceFields
          audience={values.audience}
          audienceTiers={values.audienceTiers}
          tiers={loaderData.tiers}
          errors={errors}
        />
        <PhotoPicker
          label="Cover photo"
          max={1}
          initial={values.photos}
          {...photoPickerErrors(errors, values.photos)}
        />
        {id === null ? <EmailReadersBox audience={values.audience} reach={null} /> : null}
        <div className="flex flex-wrap gap-3">
          {id === null ? (
            <>
              <button type="submit" name="intent" value="save-publish" className="btn-primary" disabled={busy}>
                Publish
              </button>
              <button type="submit" name="intent" value="save" className="btn-outline" disabled={busy}>
                Save as draft
              </button>
            </>
          ) : (
            <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
              {busy ? "Saving..." : "Save post"}
            </button>
          )}
        </div>
      </Form>

      {id !== null && !published ? (
        <Form method="post" className="card max-w-3xl p-4 sm:p-6">
          <p className="text-ink-soft">Publishing puts it on the blog, dated today.</p>
          {loaderData.email ? (
            <EmailReadersBox audience={loaderData.email.audience} reach={loaderData.email.reach} />
          ) : null}
          <button type="submit" name="intent" value="publish" className="btn-primary mt-3" disabled={busy}>
            Publish {loaderData.values.title}
          </button>
        </Form>
      ) : null}

      {id !== null && published && loaderData.email ? (
        <EmailReadersButton
          reach={loaderData.email.reach}
          audience={loaderData.email.audience}
          emailed={loaderData.email.emailed}
          error={emailError}
          busy={busy}
        />
      ) : null}

      {id !== null && published ? (
        <details className="card max-w-3xl p-4 sm:p-6">
          <summary className="min-h-11 cursor-pointer py-2 font-semibold">Unpublish this post</summary>
          <p className="mt-2 text-ink-soft">
            It becomes a draft: gone from the blog, the home page and search engines, and its address answers Not Found.
            You can publish it again later.
          </p>
          <Form method="post" className="mt-4">
            <button type="submit" name="intent" value="unpublish" className="btn-dark min-h-11 px-5">
              Yes, unpublish {loaderData.values.title}
            </button>
          </Form>
        </details>
      ) : null}

      {id !== null ? (
        <ConfirmDelete
          summary="Delete this post"
          explanation="The post, its views and its likes are removed for good. Unpublish it instead to keep it as a draft."
          name={loaderData.values.title}
        />
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    title: loaderData?.id ? `Edit ${loaderData.values.title}` : "New post",
    description: "Write or edit a blog post.",
    path: "/admin/blog",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return <AdminNotFound title="Post not found" backTo="/admin/blog" backLabel="All posts" />;
}
