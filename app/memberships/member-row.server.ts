import { eq } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { isRowId } from "~/db/row-id";
import { members } from "~/db/schema";

/**
 * A member's row and how to find it: on their own, since the member emails and links need them and
 * members.server needs those (issue 38: the three imported each other in a circle).
 */
export type MemberRow = typeof members.$inferSelect;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function findMember(db: Database | Tx, id: number): Promise<MemberRow | undefined> {
  if (!isRowId(id)) return undefined;
  const [row] = await db.select().from(members).where(eq(members.id, id)).limit(1);
  return row;
}

export async function findMemberByEmail(db: Database | Tx, email: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(members)
    .where(eq(members.email, normaliseEmail(email)))
    .limit(1);
  return row;
}
