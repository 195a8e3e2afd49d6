import { Link } from "react-router";
import { site } from "~/content/site";
import type { Route } from "./+types/home";

export default function Home() {
  return (
    <section id="hero" className="container-page py-20">
      <h1 className="text-4xl font-semibold">{site.tagline}</h1>
      <p className="mt-4 max-w-2xl text-lg">{site.heroText}</p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link to="/styled-collections" className="btn-primary">Shop Sustainable Fashion</Link>
        <Link to="/events" className="btn-dark">Explore Events</Link>
        <Link to="/contact" className="btn-outline">Contact Us</Link>
      </div>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: site.name }];
