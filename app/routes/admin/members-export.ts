import { csvRow } from "~/admin/csv";
import { csvResponse } from "~/admin/csv-response.server";
import { readMemberQuery } from "~/memberships/member-list-query";
import { memberExportRows } from "~/memberships/members-admin.server";
import { southAfricanDay } from "~/memberships/periods";
import type { Route } from "./+types/members-export";

/** GET /admin/members/export?…: the members list as filtered, as CSV (401 without a session). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = readMemberQuery(new URL(request.url).searchParams);
  const header = [
    "Name",
    "Email",
    "Phone",
    "Tier",
    "Monthly price (ZAR)",
    "Next tier",
    "Status",
    "Paid until",
    "Joined",
    "Cancelled",
  ];
  async function* lines() {
    yield csvRow(header);
    for await (const { member: m, tierName, tierPriceCents, nextTierName } of memberExportRows(
      context.db,
      query,
      southAfricanDay(context.clock.now()),
    )) {
      yield csvRow([
        m.name,
        m.email,
        m.phone,
        tierName ?? m.tierSlug,
        tierPriceCents === null ? "" : (tierPriceCents / 100).toFixed(2),
        m.nextTierSlug && m.nextTierSlug !== m.tierSlug ? (nextTierName ?? m.nextTierSlug) : "",
        m.status,
        m.paidUntil,
        m.joinedAt,
        m.cancelledAt,
      ]);
    }
  }
  return csvResponse(lines(), `honey-members-${context.clock.now().toISOString().slice(0, 10)}.csv`);
}
