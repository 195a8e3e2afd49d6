import { data, redirect } from "react-router";
import type { ToastMessage } from "~/lib/toast-message";
import { setToastCookie } from "./flash-toast.server";

/**
 * "Delete" on an admin edit page (product, event, post): remove the record, then back to its list
 * with a toast saying what happened. A record that does not exist (a new one's page, or one removed
 * in another tab) is a 404 saying so, and nothing changes. `remove` answers null or "missing" for it.
 */
export async function archiveOrDelete<Id, Outcome>(options: {
  id: Id | null;
  notFound: string;
  remove: (id: Id) => Promise<Outcome | "missing" | null>;
  listPath: string;
  toast: (outcome: Exclude<Outcome, "missing">) => ToastMessage;
}): Promise<never> {
  const missing = () => data({ error: options.notFound }, { status: 404 });
  if (options.id === null) throw missing();
  const outcome = await options.remove(options.id);
  if (outcome === null || outcome === "missing") throw missing();
  const toast = options.toast(outcome as Exclude<Outcome, "missing">);
  throw redirect(options.listPath, { headers: { "Set-Cookie": setToastCookie(toast) } });
}

/**
 * The toast for a record that is archived instead of deleted once it has orders (products and
 * events): the orders keep pointing at it, hidden from `place`.
 */
export function archivedOrDeletedToast(noun: string, place: string) {
  return (outcome: "archived" | "deleted"): ToastMessage =>
    outcome === "archived"
      ? {
          title: `${noun} archived`,
          description: `It has orders, so it is hidden from the ${place} and kept for them.`,
        }
      : { title: `${noun} deleted` };
}
