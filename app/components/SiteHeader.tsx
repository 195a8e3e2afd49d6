import { Link, NavLink } from "react-router";
import { site } from "~/content/site";
import { BagLink } from "./bag/BagLink";
import { MenuSummary } from "./ui/MenuSummary";

export const mainNav = [
  { to: "/", label: "Home" },
  { to: "/styled-collections", label: "Products" },
  { to: "/consultation-services", label: "Services" },
  { to: "/events", label: "Events" },
  { to: "/blog", label: "Blog" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
] as const;

function HoneycombMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8 shrink-0">
      <path d="M16 2 28 9v14l-12 7-12-7V9z" fill="var(--color-honey)" stroke="var(--color-ink)" strokeWidth="2" />
      <path d="M16 10l5 3v6l-5 3-5-3v-6z" fill="var(--color-ink)" />
    </svg>
  );
}

/** Header with the brand and main navigation; on phones the menu is a native disclosure, so it works without JavaScript. */
export function SiteHeader() {
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `rounded-full px-3 py-2 text-sm font-semibold transition-colors hover:bg-honey-light ${isActive ? "bg-honey-light" : ""}`;
  return (
    <header className="sticky top-0 z-40 border-b border-ink/10 bg-cream/95 backdrop-blur">
      <a
        href="#main"
        className={
          "sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded " +
          "focus:bg-ink focus:px-4 focus:py-2 focus:text-cream"
        }
      >
        Skip to content
      </a>
      <div className="container-page flex h-16 items-center justify-between gap-4">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2 font-display text-base font-semibold sm:text-lg"
          aria-label={`${site.name} home`}
        >
          <HoneycombMark />
          <span className="leading-tight">{site.name}</span>
        </Link>
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {mainNav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === "/"} className={linkClass} prefetch="intent">
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex shrink-0 items-center gap-1">
          <BagLink />
          <details className="group relative lg:hidden">
            <MenuSummary />
            <nav
              aria-label="Mobile"
              className="absolute right-0 mt-2 w-56 rounded-2xl bg-white p-2 shadow-lg ring-1 ring-ink/10"
            >
              <ul>
                {mainNav.map((item) => (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      end={item.to === "/"}
                      className="block rounded-xl px-4 py-3 font-semibold hover:bg-honey-light"
                      onClick={(event) => event.currentTarget.closest("details")?.removeAttribute("open")}
                    >
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
