import { useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { MenuSummary } from "~/components/ui/MenuSummary";

/** The admin's sections, in the order the owner reaches for them. */
export const adminSections = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/members", label: "Members" },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/events", label: "Events" },
  { to: "/admin/memberships", label: "Memberships" },
  { to: "/admin/blog", label: "Blog" },
  { to: "/admin/gallery", label: "Gallery" },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/settings", label: "Settings" },
  { to: "/admin/activity", label: "Activity" },
  { to: "/admin/check-in", label: "Check-in" },
  { to: "/admin/newsletters", label: "Newsletters" },
  { to: "/admin/data-requests", label: "Data requests" },
  { to: "/admin/codes", label: "Discount codes" },
] as const;

function SectionLinks({ className }: { className: string }) {
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `flex min-h-11 items-center rounded-xl px-3 font-semibold hover:bg-honey-light ${
      isActive ? "bg-ink text-cream hover:bg-ink" : ""
    }`;
  return (
    <ul className={className}>
      {adminSections.map((s) => (
        <li key={s.to}>
          <NavLink to={s.to} end={"end" in s ? s.end : false} className={linkClass}>
            {s.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

function LogoutButton() {
  return (
    <Form method="post" action="/admin/logout">
      <button type="submit" className="btn-dark min-h-11 px-4 py-1.5 text-sm">
        Logout
      </button>
    </Form>
  );
}

/**
 * The frame of every admin page: the sections as a sidebar from 768 px, behind a Menu button below
 * it (a native disclosure, so it opens before JavaScript loads), the current section marked
 * (aria-current), and Logout always in reach.
 */
export function AdminShell({ children }: { children: React.ReactNode }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  // A client navigation keeps the disclosure open over the new page: close it, as a full load would.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#admin-main"
        className={
          "sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded " +
          "focus:bg-ink focus:px-4 focus:py-2 focus:text-cream"
        }
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b border-ink/10 bg-cream/95 backdrop-blur">
        <div className="flex h-16 items-center justify-between gap-3 px-4 md:px-6">
          <Link to="/admin" className="font-display text-lg font-semibold leading-tight">
            Honey Bee <span className="text-ink-soft">admin</span>
          </Link>
          <div className="flex items-center gap-2">
            <a href="/" className="link hidden text-sm font-semibold sm:inline">
              View site
            </a>
            <details ref={menu} className="group relative md:hidden">
              <MenuSummary />
              <nav
                aria-label="Admin sections"
                className="absolute right-0 mt-2 w-60 rounded-2xl bg-white p-2 shadow-lg ring-1 ring-ink/10"
              >
                <SectionLinks className="space-y-1" />
                <div className="mt-2 border-t border-ink/10 pt-2">
                  <a href="/" className="flex min-h-11 items-center rounded-xl px-3 font-semibold hover:bg-honey-light">
                    View site
                  </a>
                </div>
              </nav>
            </details>
            <LogoutButton />
          </div>
        </div>
      </header>
      <div className="flex flex-1">
        <nav aria-label="Admin" className="hidden w-56 shrink-0 border-r border-ink/10 p-4 md:block">
          <SectionLinks className="sticky top-20 space-y-1" />
        </nav>
        <main id="admin-main" className="min-w-0 flex-1">
          {children}
        </main>
      </div>
    </div>
  );
}

/** The top of a section: its heading and the actions that belong to it ("New product"). */
export function AdminPageHeader({ title, children }: { title: React.ReactNode; children?: React.ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-semibold [overflow-wrap:anywhere] sm:text-3xl">{title}</h1>
      {children ? <div className="flex flex-wrap items-center gap-2">{children}</div> : null}
    </div>
  );
}

export const adminPageClass = "space-y-6 px-4 py-6 md:px-6 md:py-8";
/** A card of an admin page that shows one record (an order, a member): its panels, each under its own heading. */
export const adminSectionClass = "card space-y-3 p-4 sm:p-6";
