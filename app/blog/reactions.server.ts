import { createHmac } from "node:crypto";
import { saDay } from "~/analytics/days";
import type { AppContext } from "~/context.server";
import { hitRateLimit, type FixedWindow } from "~/contact/rate-limit.server";
import { requestClientKey } from "~/lib/client-address.server";
import { hasLiked, reactToPost } from "./posts.server";

export type ReactionKind = "view" | "like";

/**
 * Views and likes one address may add in an hour, whatever user agents it claims (decision 108): far
 * more than a reader opens or likes, too few to move the "Most Views" and "Most Likes" sorts.
 */
export const BLOG_REACTION_LIMITS = {
  view: { bucket: "blog-view", limit: 60, windowMs: 60 * 60_000 },
  like: { bucket: "blog-like", limit: 10, windowMs: 60 * 60_000 },
} as const satisfies Record<ReactionKind, FixedWindow>;

type ReactionContext = Pick<AppContext, "db" | "config" | "clock" | "clientIp">;

/**
 * Who reacted, as the reaction row stores it: an HMAC of the client's address key and user agent, so
 * the table holds no address and a made-up session id counts for nothing. A view is one per visitor
 * and South African day, as the analytics count visitors; a like is one per visitor for good.
 */
function visitorKey(context: ReactionContext, userAgent: string, kind: ReactionKind): string {
  const day = kind === "view" ? saDay(context.clock.now()) : "";
  return createHmac("sha256", context.config.sessionSecret)
    .update(`blog-${kind}\n${requestClientKey(context)}\n${userAgent.slice(0, 500)}\n${day}`)
    .digest("base64url")
    .slice(0, 32);
}

export type ReactionResult =
  { status: "counted"; views: number; likes: number; liked: boolean } | { status: "limited" };

/** Counts a view or a like once per visitor, within the address's budget. */
export async function reactAsVisitor(
  context: ReactionContext,
  postId: number,
  kind: ReactionKind,
  userAgent: string,
): Promise<ReactionResult> {
  if (!(await hitRateLimit(context.db, BLOG_REACTION_LIMITS[kind], requestClientKey(context), context.clock.now()))) {
    return { status: "limited" };
  }
  const counts = await reactToPost(context.db, postId, visitorKey(context, userAgent, kind), kind);
  const liked = kind === "like" || (await hasLiked(context.db, postId, visitorKey(context, userAgent, "like")));
  return { status: "counted", views: counts?.views ?? 0, likes: counts?.likes ?? 0, liked };
}
