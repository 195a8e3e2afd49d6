import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { halfOfPageFrom, Picture } from "./Picture";

describe("Picture", () => {
  it("offers AVIF, then WebP, then the original, with the same sizes on both", () => {
    const html = renderToStaticMarkup(
      <Picture src="/images/hero/hero.svg" sizes={halfOfPageFrom("md")} alt="Hero" width={1600} height={1000} />,
    );
    expect(html).toBe(
      '<picture class="contents"><source type="image/avif" srcSet="/images/hero/hero.400w.avif 400w, ' +
        '/images/hero/hero.800w.avif 800w, /images/hero/hero.1200w.avif 1200w" sizes="(min-width: 1152px) 540px, ' +
        '(min-width: 768px) 50vw, 100vw"/>' +
        '<img src="/images/hero/hero.svg" srcSet="/images/hero/hero.400w.webp 400w, /images/hero/hero.800w.webp 800w, ' +
        '/images/hero/hero.1200w.webp 1200w" sizes="(min-width: 1152px) 540px, (min-width: 768px) 50vw, 100vw" ' +
        'loading="lazy" fetchPriority="auto" decoding="async" alt="Hero" width="1600" height="1000"/></picture>',
    );
  });

  it("offers an uploaded photo's renditions, only the widths it has when its width is given", () => {
    const html = renderToStaticMarkup(
      <Picture
        src="/media/0123456789abcdef0123.webp"
        sizes="100vw"
        alt="Honey"
        intrinsicWidth={600}
        width={600}
        height={450}
      />,
    );
    expect(html).toContain(
      '<source type="image/avif" srcSet="/media/0123456789abcdef0123.400w.avif 400w, /media/0123456789abcdef0123.600w.avif 600w"',
    );
    expect(html).toContain(
      '<img src="/media/0123456789abcdef0123.webp" srcSet="/media/0123456789abcdef0123.400w.webp 400w, ' +
        '/media/0123456789abcdef0123.600w.webp 600w"',
    );
    expect(html).not.toContain("intrinsic");
  });

  it("shows an image without renditions as a plain <img>", () => {
    expect(renderToStaticMarkup(<Picture src="https://example.com/a.jpg" sizes="100vw" alt="" />)).toBe(
      '<img src="https://example.com/a.jpg" loading="lazy" fetchPriority="auto" decoding="async" alt=""/>',
    );
  });

  it("names the breakpoint where the two columns start", () => {
    expect(halfOfPageFrom("sm")).toBe("(min-width: 1152px) 540px, (min-width: 640px) 50vw, 100vw");
    expect(halfOfPageFrom("lg")).toBe("(min-width: 1152px) 540px, (min-width: 1024px) 50vw, 100vw");
  });
});
