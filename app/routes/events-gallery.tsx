import { Link, useNavigate } from "react-router";
import { GalleryLightbox } from "~/components/events/GalleryLightbox";
import { listGalleryPhotos } from "~/gallery/gallery.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/events-gallery";

/** The owner's gallery (/admin/gallery), in her order, with captions. */
export async function loader({ context }: Route.LoaderArgs) {
  const rows = await listGalleryPhotos(context.db);
  return { photos: rows.map((r) => ({ src: r.src, alt: r.alt, caption: r.caption })) };
}

export default function EventsGalleryPage({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  return (
    <section className="container-page py-10 sm:py-14">
      <a
        href="/"
        className="btn-outline min-h-11"
        onClick={(e) => {
          // React Router numbers history entries (idx); above 0 means a page of this site came before.
          const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
          if (idx > 0) {
            e.preventDefault();
            navigate(-1);
          }
        }}
      >
        ← Back
      </a>
      <h1 className="mt-6 font-display text-4xl text-ink sm:text-5xl">Events Gallery</h1>
      <p className="mt-3 max-w-2xl text-ink/80">Moments from our workshops, styling days and community gatherings.</p>
      <div className="mt-8">
        {loaderData.photos.length ? (
          <GalleryLightbox photos={loaderData.photos} />
        ) : (
          <p className="text-ink-soft">New photos are on their way.</p>
        )}
      </div>
      <div className="mt-10 text-center">
        <Link to="/events" className="btn-primary min-h-11">
          View Upcoming Events
        </Link>
      </div>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    title: "Events Gallery",
    description: "Photos from Honey Bee Sustainable Fashion workshops and events.",
    path: "/events-gallery",
    siteUrl: siteUrlFrom(matches),
    image: loaderData?.photos[0]?.src ?? "/images/gallery/workshop-01.svg",
  });
