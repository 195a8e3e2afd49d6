import { asc, inArray } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { membershipTiers } from "~/db/schema";
import { findMember } from "~/memberships/member-row.server";
import { signedInMemberId } from "~/memberships/member-session.server";
import { southAfricanDay } from "~/memberships/periods";
import { type AudienceTier, mayRead, type PostAudience } from "./post-audience";

interface GatedPost {
  audience: PostAudience;
  audienceTiers: string[];
}

/** The chosen tiers of the given posts by slug, with their names, in the tiers' own order. */
export async function audienceTiersBySlug(db: Database, posts: readonly GatedPost[]) {
  const slugs = [...new Set(posts.flatMap((p) => (p.audience === "tiers" ? p.audienceTiers : [])))];
  const rows = slugs.length
    ? await db
        .select({ slug: membershipTiers.slug, name: membershipTiers.name, listed: membershipTiers.visible })
        .from(membershipTiers)
        .where(inArray(membershipTiers.slug, slugs))
        .orderBy(asc(membershipTiers.sortOrder), asc(membershipTiers.name))
    : [];
  return (post: GatedPost): AudienceTier[] =>
    post.audience === "tiers" ? rows.filter((t) => post.audienceTiers.includes(t.slug)) : [];
}

/**
 * Whether this request may read the post's text, and whether a member is signed in (their page is
 * then theirs alone). A public post reads no session at all, so its page stays the same for everyone.
 */
export async function readerAccess(
  request: Request,
  context: Pick<AppContext, "db" | "clock" | "config">,
  post: GatedPost,
): Promise<{ readable: boolean; signedIn: boolean }> {
  if (post.audience === "public") return { readable: true, signedIn: false };
  const memberId = await signedInMemberId(request, context);
  const member = memberId === undefined ? undefined : await findMember(context.db, memberId);
  return {
    readable: mayRead(post, member, southAfricanDay(context.clock.now())),
    signedIn: member !== undefined,
  };
}
