import { useState } from "react";
import { site } from "~/content/site";
import { Picture } from "~/components/ui/Picture";

/** The community video: only a poster until the visitor presses play, so the page stays light. */
export function CommunityVideo() {
  const [playing, setPlaying] = useState(false);
  const { youtubeId, title, poster } = site.video;
  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-3xl bg-ink shadow-md">
      {playing ? (
        <iframe
          className="absolute inset-0 h-full w-full"
          src={`https://www.youtube-nocookie.com/embed/${youtubeId}?autoplay=1&rel=0`}
          title={title}
          allow="autoplay; encrypted-media; picture-in-picture"
          allowFullScreen
        />
      ) : (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          className={
            "group absolute inset-0 h-full w-full focus-visible:outline-4 focus-visible:outline-offset-2 " +
            "focus-visible:outline-honey"
          }
          aria-label={`Play video: ${title}`}
        >
          <Picture
            src={poster}
            sizes="(min-width: 1152px) 640px, (min-width: 1024px) 58vw, 100vw"
            alt=""
            width={1280}
            height={720}
            className="h-full w-full object-cover"
          />
          <span className="absolute inset-0 flex items-center justify-center">
            <span
              className={
                "flex h-20 w-20 items-center justify-center rounded-full bg-honey text-ink shadow-lg " +
                "transition group-hover:scale-105"
              }
            >
              <svg viewBox="0 0 24 24" className="ml-1 h-9 w-9" aria-hidden="true">
                <path d="M8 5v14l11-7z" fill="currentColor" />
              </svg>
            </span>
          </span>
        </button>
      )}
    </div>
  );
}
