import { Link } from "react-router";
import { AboutImages } from "~/components/home/AboutImages";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/about";

export default function About() {
  return (
    <>
      <section className="container-page py-12 text-center sm:py-16">
        <p className="text-sm font-semibold tracking-widest text-accent uppercase">Our story</p>
        <h1 className="font-display mt-2 text-4xl sm:text-5xl">About Honey Bee</h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-ink-soft">
          Honey Bee began with a simple belief: beautiful clothes do not have to cost the earth. We rescue fabrics,
          tablecloths and forgotten garments, and turn them into pieces you will love for years, styled on our beautiful
          Honeys and made by hand in South Africa.
        </p>
      </section>
      <AboutImages />
      <section className="container-page py-12 text-center">
        <p className="mx-auto max-w-2xl text-lg text-ink-soft">
          Come and make something with us, or find a piece that tells a story.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/styled-collections" className="btn-primary">
            Shop Sustainable Fashion
          </Link>
          <Link to="/events" className="btn-outline">
            Explore Events
          </Link>
        </div>
      </section>
    </>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "About",
    description: "The story behind Honey Bee Sustainable Fashion: upcycled, handmade South African fashion.",
    path: "/about",
    siteUrl: siteUrlFrom(matches),
    image: "/images/about/model.svg",
  });
}
