/** Which members have their card charges paused by the owner (decision 130), as a condition on `members`. */
import { and, eq, isNotNull, notExists } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { members, memberSubscriptions } from "~/db/schema";

/**
 * True for a member with no paused card subscription: a paused member is neither made due nor lapsed by the job,
 * and her tier is not counted as monthly income, until the pause ends.
 */
export const notPausedByCard = (db: Pick<Database | Tx, "select">) =>
  notExists(
    db
      .select({ id: memberSubscriptions.id })
      .from(memberSubscriptions)
      .where(
        and(
          eq(memberSubscriptions.memberId, members.id),
          eq(memberSubscriptions.status, "active"),
          isNotNull(memberSubscriptions.pausedUntil),
        ),
      ),
  );
