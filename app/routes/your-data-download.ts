import { data } from "react-router";
import { site } from "~/content/site";
import { dataSubjectEmail } from "~/privacy/data-access.server";
import { dataSubject, readPersonalRecords } from "~/privacy/personal-records.server";
import { personalRecordsHtml } from "~/privacy/records-html.server";
import type { Route } from "./+types/your-data-download";

/** "Download my data": every record under the address, as JSON or as a web page that opens offline. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const format = params.format;
  if (format !== "json" && format !== "html") throw data({ message: "Not found" }, { status: 404 });
  const email = await dataSubjectEmail(request, context);
  if (!email)
    throw data({ message: "Open your data page first" }, { status: 401, headers: { "Cache-Control": "no-store" } });
  const now = context.clock.now();
  const records = await readPersonalRecords(context.db, await dataSubject(context.db, email), now);
  const day = records.generatedAt.slice(0, 10);
  const body = format === "json" ? JSON.stringify(records, null, 2) : personalRecordsHtml(records, site.name);
  return new Response(body, {
    headers: {
      "Content-Type": format === "json" ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
      "Content-Disposition": `attachment; filename="honey-bee-my-data-${day}.${format}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
