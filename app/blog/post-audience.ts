/** Who may read a post's text (decision 118). Pure, so the admin form, the blog and the server share it. */
import { hasAccessOn } from "~/memberships/periods";

export const POST_AUDIENCES = ["public", "members", "tiers"] as const;
export type PostAudience = (typeof POST_AUDIENCES)[number];

export const POST_AUDIENCE_CHOICES: readonly { value: PostAudience; label: string }[] = [
  { value: "public", label: "Everyone" },
  { value: "members", label: "Members (any active plan)" },
  { value: "tiers", label: "Members of the plans ticked below" },
];

/** The tiers a post's readers may be on, each with its name; `listed` when its page is on the site. */
export interface AudienceTier {
  slug: string;
  name: string;
  listed: boolean;
}

const inWords = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

/** The lock's words on a card and above a locked post: "Members only" or "For Glow Bee members". */
export function lockLabel(audience: PostAudience, tiers: readonly AudienceTier[]): string | null {
  if (audience === "public") return null;
  if (audience === "members" || tiers.length === 0) return "Members only";
  return `For ${inWords(tiers.map((t) => t.name))} members`;
}

/** Where "Join to read" leads: the one plan's page, or the list of plans on the home page. */
export function joinHref(audience: PostAudience, tiers: readonly AudienceTier[]): string {
  const listed = tiers.filter((t) => t.listed);
  if (audience === "tiers" && listed.length === 1) return `/membership/${encodeURIComponent(listed[0]!.slug)}`;
  return "/#membership-heading";
}

/**
 * Whether a reader may see the text: anyone for a public post; for the others, a member who has paid
 * for today (a cancelled member keeps access until paid-until), on one of the chosen tiers if any.
 */
export function mayRead(
  post: { audience: PostAudience; audienceTiers: readonly string[] },
  member: { tierSlug: string; paidUntil: string } | undefined,
  today: string,
): boolean {
  if (post.audience === "public") return true;
  if (!member || !hasAccessOn(member, today)) return false;
  return post.audience === "members" || post.audienceTiers.includes(member.tierSlug);
}
