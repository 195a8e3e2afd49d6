import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorSummary, fieldsWithErrors } from "./fields";
import { PhotoPicker, photoPickerErrors } from "./PhotoPicker";

const initial = [
  { src: "/media/0123456789abcdef0123.webp", alt: "Honey in the yellow wrap skirt" },
  { src: "/images/products/candy-earrings-1.svg", alt: "" },
];

/** The server's markup, before any JavaScript: what a form without JavaScript submits. */
const render = (props: Partial<Parameters<typeof PhotoPicker>[0]> = {}) =>
  renderToStaticMarkup(<PhotoPicker initial={initial} {...props} />);

describe("PhotoPicker (server markup)", () => {
  it("sends each photo's src and alt text in display order, with a visible label and help text", () => {
    const html = render();
    expect(html).toContain("<legend");
    expect(html).toMatch(/>Photos<\/legend>/);
    expect(html).toContain("The first photo is the card photo.");
    expect([...html.matchAll(/<input type="hidden" name="photoSrc" value="([^"]+)"/g)].map((m) => m[1])).toEqual(
      initial.map((p) => p.src),
    );
    const altInputs = [...html.matchAll(/<input id="[^"]+-alt-[^"]+"[^>]*>/g)].map((m) => m[0]);
    expect(altInputs.map((input) => /name="photoAlt" value="([^"]*)"/.exec(input)?.[1])).toEqual(
      initial.map((p) => p.alt),
    );
    for (const input of altInputs) expect(input).toContain('required=""');
    // Thumbnails are the small WebP renditions.
    expect(html).toContain('src="/media/0123456789abcdef0123.400w.webp"');
    expect(html).toContain('src="/images/products/candy-earrings-1.400w.webp"');
  });

  it("names every control with the photo's position; the ends of the list cannot move further", () => {
    const html = render();
    for (const name of [
      'Move up<span class="sr-only"> photo 1</span>',
      'Move down<span class="sr-only"> photo 2</span>',
      'Remove<span class="sr-only"> photo 2</span>',
    ]) {
      expect(html).toContain(name);
    }
    expect(html).toMatch(/disabled=""[^>]*>Move up<span class="sr-only"> photo 1/);
    expect(html).toMatch(/disabled=""[^>]*>Move down<span class="sr-only"> photo 2/);
    expect(html).not.toMatch(/disabled=""[^>]*>Move down<span class="sr-only"> photo 1/);
    expect(html.match(/type="button"/g)).toHaveLength(6);
    expect(html).toMatch(
      /<label for="[^"]+" class="[^"]*">Alt text<span class="sr-only"> for photo 2<\/span><\/label>/,
    );
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
    const html = render({
      label: "Gallery photos",
      error: "Add at least one photo.",
      fieldErrors: [undefined as unknown as string, "Alt text is required"],
    });
    expect(html).toMatch(/>Gallery photos<\/legend>/);
    expect(html).toMatch(/role="alert"[^>]*>Add at least one photo\.<\/p>/);
    expect(html).toMatch(/aria-invalid="true" aria-describedby="([^"]+)-error [^"]+-alt-help"/);
    expect(html).toContain(">Alt text is required</p>");
    expect(html.match(/aria-invalid/g)).toHaveLength(1);
  });

  it("says when there is no photo yet", () => {
    expect(renderToStaticMarkup(<PhotoPicker initial={[]} />)).toContain("No photos yet.");
  });

  it("says what alt text is for, with an example, and every alt field points to it", () => {
    const html = render();
    const help = /<p id="([^"]+-alt-help)"[^>]*>([^<]+)<\/p>/.exec(html);
    expect(help?.[2]).toContain("Blue shweshwe wrap dress, front view");
    expect(help?.[2]).toContain("cannot see it");
    const altInputs = [...html.matchAll(/<input id="[^"]+-alt-[^"]+"[^>]*>/g)].map((m) => m[0]);
    for (const input of altInputs) expect(input).toContain(`aria-describedby="${help?.[1]}"`);
  });
});

describe("alt text messages from a refused form", () => {
  // What validateForm makes of two photos without alt text: each path, and the first under "photos".
  const refused = {
    "photos.0.alt": "Alt text is required",
    "photos.1.alt": "Alt text is required",
    photos: "Alt text is required",
  };

  it("shows each message once, next to its photo, and none repeated above the list", () => {
    const html = render({ ...photoPickerErrors(refused, initial) });
    expect(html.match(/Alt text is required/g)).toHaveLength(2);
    expect(html).not.toContain('role="alert"');
    expect(html.match(/aria-invalid="true"/g)).toHaveLength(2);
  });

  it("keeps a message about the list itself above it", () => {
    expect(photoPickerErrors({ photos: "Add at least one photo." }, [])).toEqual({
      error: "Add at least one photo.",
      fieldErrors: [],
    });
    expect(photoPickerErrors(undefined, initial)).toEqual({ error: undefined, fieldErrors: ["", ""] });
  });

  it("counts each photo's alt text as a field in the summary", () => {
    expect(fieldsWithErrors(refused)).toBe(2);
    expect(fieldsWithErrors({ ...refused, name: "Name is required" })).toBe(3);
    expect(
      fieldsWithErrors({
        "photos.0.alt": "Alt text is required",
        "photos.0.src": "Unknown photo",
        photos: "Alt text is required",
      }),
    ).toBe(1);
    expect(fieldsWithErrors({ photos: "Add at least one photo." })).toBe(1);
    expect(renderToStaticMarkup(<ErrorSummary errors={refused} />)).toContain("2 fields need your attention.");
    expect(
      renderToStaticMarkup(
        <ErrorSummary errors={{ "photos.1.alt": "Alt text is required", photos: "Alt text is required" }} />,
      ),
    ).toContain("One field needs your attention.");
  });
});
