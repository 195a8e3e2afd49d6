import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PhotoPicker } from "./PhotoPicker";

const initial = [
  { src: "/media/0123456789abcdef0123.webp", alt: "Honey in the yellow wrap skirt" },
  { src: "/images/products/candy-earrings-1.svg", alt: "" },
];

/** The server's markup, before any JavaScript: what a form without JavaScript submits. */
const render = (props: Partial<Parameters<typeof PhotoPicker>[0]> = {}) => renderToStaticMarkup(<PhotoPicker initial={initial} {...props} />);

describe("PhotoPicker (server markup)", () => {
  it("sends each photo's src and alt text in display order, with a visible label and help text", () => {
    const html = render();
    expect(html).toContain("<legend");
    expect(html).toMatch(/>Photos<\/legend>/);
    expect(html).toContain("The first photo is the card photo.");
    expect([...html.matchAll(/<input type="hidden" name="photoSrc" value="([^"]+)"/g)].map((m) => m[1])).toEqual(initial.map((p) => p.src));
    const altInputs = [...html.matchAll(/<input id="[^"]+-alt-[^"]+"[^>]*>/g)].map((m) => m[0]);
    expect(altInputs.map((input) => /name="photoAlt" value="([^"]*)"/.exec(input)?.[1])).toEqual(initial.map((p) => p.alt));
    for (const input of altInputs) expect(input).toContain('required=""');
    // Thumbnails are the small WebP renditions.
    expect(html).toContain('src="/media/0123456789abcdef0123.400w.webp"');
    expect(html).toContain('src="/images/products/candy-earrings-1.400w.webp"');
  });

  it("names every control with the photo's position; the ends of the list cannot move further", () => {
    const html = render();
    for (const name of ["Move up<span class=\"sr-only\"> photo 1</span>", "Move down<span class=\"sr-only\"> photo 2</span>", "Remove<span class=\"sr-only\"> photo 2</span>"]) {
      expect(html).toContain(name);
    }
    expect(html).toMatch(/disabled=""[^>]*>Move up<span class="sr-only"> photo 1/);
    expect(html).toMatch(/disabled=""[^>]*>Move down<span class="sr-only"> photo 2/);
    expect(html).not.toMatch(/disabled=""[^>]*>Move down<span class="sr-only"> photo 1/);
    expect(html.match(/type="button"/g)).toHaveLength(6);
    expect(html).toMatch(/<label for="[^"]+" class="[^"]*">Alt text<span class="sr-only"> for photo 2<\/span><\/label>/);
  });

  it("offers a file input that a form without JavaScript submits", () => {
    const html = render({ max: 5 });
    const input = /<input id="[^"]+-files" type="file"[^>]*>/.exec(html)?.[0] ?? "";
    expect(input).toContain('name="photoFiles"');
    expect(input).toContain('multiple=""');
    expect(input).toContain('accept="image/jpeg,image/png,image/webp,image/avif,image/heic,image/heif"');
    expect(html).toMatch(/<label for="[^"]+-files"[^>]*>Add photos<\/label>/);
    expect(html).toContain("up to 20 MB each, 5 at most.");
    expect(render({ max: 2 })).toMatch(/type="file"[^>]* disabled=""/);
  });

  it("shows the form's messages: one for the list, one per alt text", () => {
    const html = render({ label: "Gallery photos", error: "Add at least one photo.", fieldErrors: [undefined as unknown as string, "Alt text is required"] });
    expect(html).toMatch(/>Gallery photos<\/legend>/);
    expect(html).toMatch(/role="alert"[^>]*>Add at least one photo\.<\/p>/);
    expect(html).toMatch(/aria-invalid="true" aria-describedby="([^"]+)-error"/);
    expect(html).toContain(">Alt text is required</p>");
    expect(html.match(/aria-invalid/g)).toHaveLength(1);
  });

  it("says when there is no photo yet", () => {
    expect(renderToStaticMarkup(<PhotoPicker initial={[]} />)).toContain("No photos yet.");
  });
});
