import { Link, useSearchParams } from "react-router";
import { listPostsForAdmin } from "~/blog/post-admin.server";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { DataList } from "~/components/admin/DataList";
import { Pagination } from "~/components/admin/Pagination";
import { dayMonthYear } from "~/lib/dates-in-words";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/blog";
import { pageParam } from "~/admin/list-query";

export async function loader({ request, context }: Route.LoaderArgs) {
  return listPostsForAdmin(context.db, pageParam(new URL(request.url).searchParams));
}

export default function AdminBlog({ loaderData }: Route.ComponentProps) {
  const { posts, page, pages, total } = loaderData;
  const [search] = useSearchParams();
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Blog">
        <Link to="/admin/blog/new" className="btn-primary min-h-11 px-4 py-1.5">
          New post
        </Link>
      </AdminPageHeader>
      <p className="text-sm text-ink-soft">
        {total === 1 ? "1 post" : `${total} posts`}. Drafts are not on the site until you publish them.
      </p>
      <DataList
        caption="Blog posts"
        rows={posts}
        rowKey={(p) => p.id}
        empty="No posts yet. Write the first one with New post."
        columns={[
          {
            header: "Title",
            primary: true,
            cell: (p) => (
              <Link to={`/admin/blog/${p.id}`} className="link font-semibold break-words">
                {p.title}
              </Link>
            ),
          },
          {
            header: "Status",
            cell: (p) => `${p.published ? "Published" : "Draft"}${p.audience === "public" ? "" : " · Members"}`,
          },
          { header: "Date", cell: (p) => <time dateTime={p.publishedOn}>{dayMonthYear(p.publishedOn)}</time> },
          { header: "Views", cell: (p) => String(p.views) },
        ]}
      />
      <Pagination page={page} pages={pages} search={search} label="Posts" />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Blog",
    description: "The blog's posts and drafts.",
    path: "/admin/blog",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
