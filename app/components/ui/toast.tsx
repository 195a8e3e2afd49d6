import { useEffect, useRef, useSyncExternalStore } from "react";
import { useLocation } from "react-router";
import type { ToastMessage } from "~/lib/toast-message";

export type { ToastMessage };

interface ShownToast extends Omit<ToastMessage, "id"> {
  id: number;
  /** The page it was shown on: a toast says what just happened there, so it goes when she moves on. */
  path: string | null;
}

/** How long a toast stays (the spec: 4 to 5 seconds). */
export const TOAST_DURATION_MS = 5000;

let shown: ShownToast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function toast(message: ToastMessage): number {
  const id = nextId++;
  const { id: _serverId, ...text } = message;
  shown = [...shown.slice(-2), { ...text, id, path: typeof window === "undefined" ? null : window.location.pathname }];
  emit();
  setTimeout(() => dismissToast(id), TOAST_DURATION_MS);
  return id;
}

export function dismissToast(id: number) {
  shown = shown.filter((t) => t.id !== id);
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const noToasts: ShownToast[] = [];

function ToastCard({ message, onClose }: { message: Omit<ToastMessage, "id">; onClose?: () => void }) {
  const destructive = message.variant === "destructive";
  return (
    <div
      role={destructive ? "alert" : "status"}
      className={`pointer-events-auto flex w-full items-start gap-3 rounded-2xl p-4 shadow-lg ring-1 ${
        destructive ? "bg-red-800 text-white ring-red-900" : "bg-white text-ink ring-ink/10"
      }`}
    >
      <div className="flex-1">
        <p className="font-semibold">{message.title}</p>
        {message.description ? <p className="mt-1 text-sm opacity-90">{message.description}</p> : null}
      </div>
      {onClose ? (
        <button
          type="button"
          onClick={onClose}
          className="-m-2 min-h-11 min-w-11 rounded-full text-xl leading-none"
          aria-label="Dismiss notification"
        >
          ×
        </button>
      ) : null}
    </div>
  );
}

const regionClass =
  "pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:inset-x-auto sm:right-0 sm:w-96";

/** Toasts of pages left behind: on the next page they would read as news of something done there. */
const isOfPage = (t: ShownToast, pathname: string) => t.path === null || t.path === pathname;

function dismissToastsOfOtherPages(pathname: string) {
  const kept = shown.filter((t) => isOfPage(t, pathname));
  if (kept.length === shown.length) return;
  shown = kept;
  emit();
}

/** The live region where toasts appear; rendered once in the root layout. */
export function Toaster() {
  const toasts = useSyncExternalStore(
    subscribe,
    () => shown,
    () => noToasts,
  );
  const { pathname } = useLocation();
  useEffect(() => dismissToastsOfOtherPages(pathname), [pathname]);
  // Filtered here too, so the toast leaves in the same render as the page it spoke of, not one after.
  return (
    <div aria-live="polite" className={regionClass}>
      {toasts
        .filter((t) => isOfPage(t, pathname))
        .map((t) => (
          <ToastCard key={t.id} message={t} onClose={() => dismissToast(t.id)} />
        ))}
    </div>
  );
}

export function useHydrated() {
  return useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
}

/**
 * Ids of the server's toasts already shown in this page's life. A layout's loader data outlives the
 * page it was loaded for, so the toast it carries reaches an ActionToast again whenever that one is
 * mounted anew (another page under the same layout): the id makes it a toast shown once.
 */
const shownIds = new Set<string>();

/**
 * Shows the toast an action returned. After hydration it goes through the Toaster; before
 * JavaScript has loaded (a plain form POST) the server renders the same card in place, so the
 * visitor sees the message either way.
 */
export function ActionToast({ message }: { message?: ToastMessage | null }) {
  const hydrated = useHydrated();
  const last = useRef<ToastMessage | null | undefined>(undefined);
  useEffect(() => {
    if (message && message !== last.current && !(message.id && shownIds.has(message.id))) {
      if (message.id) shownIds.add(message.id);
      toast(message);
    }
    last.current = message;
  }, [message]);
  if (hydrated || !message) return null;
  return (
    <div className={regionClass}>
      <ToastCard message={message} />
    </div>
  );
}
