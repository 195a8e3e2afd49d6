import { useEffect } from "react";
import { data, Link, useLocation } from "react-router";
import type { Route } from "./+types/not-found";

export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  const location = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", location.pathname);
  }, [location.pathname]);
  return (
    <section className="container-page flex flex-col items-center py-24 text-center">
      <p className="font-display text-7xl font-semibold text-accent">404</p>
      <h1 className="mt-4 text-2xl font-semibold sm:text-3xl">Oops! Page not found</h1>
      <Link to="/" className="btn-primary mt-8">
        Return to Home
      </Link>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Page not found | Honey Bee Sustainable Fashion" },
  {
    name: "description",
    content: "Oops! Page not found. Find our styled collections, events and memberships from the home page.",
  },
  { name: "robots", content: "noindex" },
];
