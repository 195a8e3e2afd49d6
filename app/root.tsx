import { useEffect } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  useLoaderData,
  useRouteError,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import { firstPageViewAlreadySent, trackEvent } from "./analytics/track";
import { isUntrackedPath } from "./analytics/untracked-paths";
import { Toaster } from "./components/ui/toast";
import { ScrollRestoration } from "./components/ScrollRestoration";
import type { Route } from "./+types/root";
import { SiteFooter } from "./components/SiteFooter";
import { SiteHeader } from "./components/SiteHeader";
import { currentSiteSettings, publicSiteSettings } from "./settings/site-settings.server";
import { DEFAULT_PUBLIC_SETTINGS } from "./settings/use-site-settings";
import dmSansCore from "./fonts/dm-sans-core-wght-normal.woff2?url";
import frauncesCore from "./fonts/fraunces-core-wght-normal.woff2?url";

export async function loader({ context }: Route.LoaderArgs) {
  return { nonce: context.nonce, siteUrl: context.config.siteUrl, settings: await contactSettings(context) };
}

/**
 * The contact details the footer, /contact and the home page show (from memory, or one small query). While the
 * database is unreachable the defaults stand in, so a page that needs no other data still renders.
 */
async function contactSettings(context: Route.LoaderArgs["context"]) {
  try {
    return publicSiteSettings(await currentSiteSettings(context.db, context.config.mail.ownerEmail));
  } catch (error) {
    console.error(`[settings] could not read the site settings, showing the defaults: ${(error as Error).message}`);
    return DEFAULT_PUBLIC_SETTINGS;
  }
}

/**
 * The root's data (the CSP nonce, the site URL, the contact details) is never fetched again while a
 * page is open: no extra request per navigation or form post, and a later request that fails on the
 * network (a contact send, a dashboard refresh) cannot turn into the root error page. A settings
 * change is seen on the next full page load, which is how visitors arrive (decision 082).
 */
export const shouldRevalidate = () => false;

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // Both faces are on the first screen (display headings, body text): fetch them with the CSS, not
  // after it, so the first layout uses them and no second layout follows a late swap. The core subsets
  // cover the ASCII copy; a page with other Latin letters also loads Fontsource's file (decision 068).
  { rel: "preload", href: frauncesCore, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "preload", href: dmSansCore, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
];

/** Admin pages (not its sign-in page) bring their own frame: the owner's navigation, not the shop's. */
const isAdminShellPath = (pathname: string) => /^\/admin(\/|$)/.test(pathname) && !/^\/admin\/login\/?$/.test(pathname);

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = data?.nonce;
  const adminShell = isAdminShellPath(useLocation().pathname);
  return (
    <html lang="en-ZA">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#F2B705" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {adminShell ? (
          children
        ) : (
          <>
            <SiteHeader />
            <main id="main" className="flex-1">
              {children}
            </main>
            <SiteFooter />
          </>
        )}
        <Toaster />
        <HydrationMarker />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * Reports a page view on every client-side route change (the spec: "Every route change reports a
 * page view"). The page the document was loaded with has already been reported by the document's own
 * script while it was parsed (app/analytics/page-view-script.server.ts, issue 22): not a second time.
 * Not cancelled on a quick second navigation: each page that was shown counts.
 */
function PageViewTracker() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (isUntrackedPath(pathname) || firstPageViewAlreadySent(pathname)) return;
    trackEvent("page_view", { pagePath: pathname });
  }, [pathname]);
  return null;
}

/**
 * Marks the document once React has hydrated it (error pages too): end-to-end tests wait for it
 * before pressing keys, since hydration now starts after the load event (decision 063).
 */
function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}

export default function App() {
  useLoaderData<typeof loader>();
  return (
    <>
      <PageViewTracker />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  // The same words on the server and after hydration (the browser only sees a sanitised error).
  let details = "Something went wrong on our side. Please try again in a moment.";
  if (isRouteErrorResponse(error)) {
    details = error.status === 503 ? details : `${error.status} ${error.statusText || ""}`.trim();
  } else if (import.meta.env.DEV && error instanceof Error) {
    details = error.message;
  }
  return (
    <section className="container-page py-20 text-center">
      <h1 className="text-3xl font-semibold sm:text-4xl">Unexpected Application Error!</h1>
      <p className="mx-auto mt-4 max-w-xl text-ink-soft">{details}</p>
      <a href="/" className="btn-primary mt-8">
        Back to Home
      </a>
    </section>
  );
}
