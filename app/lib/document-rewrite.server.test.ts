import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { encodeDocument, inlineStylesheet } from "./document-encoding.server";
import { prepareDocument as cut, rewriteStream, type DocumentOptions } from "./document-rewrite.server";

/** The document's text as sent without compression, the stylesheet in its place. */
const prepareDocument = (html: string, { stylesheet, ...options }: DocumentOptions & { stylesheet: string }) =>
  Buffer.concat(encodeDocument(cut(html, options), inlineStylesheet(stylesheet), false)).toString();

const DOC = [
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/><title>Honey</title>',
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="N1"/>',
  '<link rel="modulepreload" href="/assets/root-B.js" nonce="N1"/>',
  "</head><body><main><p>Tōkyō — R 200,00</p></main>",
  '<script nonce="N1">window.__reactRouterContext = {};</script>',
  '<script nonce="N1" type="module" async="">import * as route0 from "/assets/root-B.js";\nimport("/assets/entry.client-A.js");</script>',
  "</body></html>",
].join("");

describe("rewriteStream", () => {
  it("hands the whole document to the rewrite, with multi-byte characters split across chunks intact", async () => {
    const bytes = Buffer.from(DOC);
    for (const cut of [1, 100, bytes.indexOf("ō") + 1, bytes.length - 1]) {
      const chunks = [bytes.subarray(0, cut), bytes.subarray(cut)];
      const out = await text(
        Readable.from(chunks).pipe(rewriteStream((html) => [Buffer.from("["), Buffer.from(html), Buffer.from("]")])),
      );
      expect(out).toBe(`[${DOC}]`);
    }
  });

  it("fails the stream when the rewrite throws, rather than sending half a page", async () => {
    const stream = Readable.from([DOC]).pipe(
      rewriteStream(() => {
        throw new Error("broken");
      }),
    );
    await expect(text(stream)).rejects.toThrow("broken");
  });
});

describe("prepareDocument", () => {
  it("writes the stylesheet into the head and leaves the scripts alone when not holding them", () => {
    const out = prepareDocument(DOC, {
      stylesheet: "body{color:red}",
      nonce: "N1",
      holdScripts: false,
      pageViewScript: null,
    });
    expect(out).toBe(DOC.replace("</head>", '<style data-stylesheet="app">body{color:red}</style></head>'));
  });

  it("holds the app's modules back: no preloads, an empty module script, one release script in the head", () => {
    const out = prepareDocument(DOC, { stylesheet: "p{}", nonce: "N1", holdScripts: true, pageViewScript: null });
    const [head, body] = out.split("</head>");
    expect(head).not.toContain('rel="modulepreload"');
    expect(head).toContain('<style data-stylesheet="app">p{}</style>');
    // The module script keeps its tag (hydration matches it) but runs nothing until released.
    expect(body).toContain('<script nonce="N1" type="module" async=""></script>');
    expect(body).not.toContain("import(");
    // Everything else in the body is untouched.
    expect(body).toContain("<main><p>Tōkyō — R 200,00</p></main>");
    expect(body).toContain('<script nonce="N1">window.__reactRouterContext = {};</script>');

    const release = /<script nonce="N1">(\(function releaseHeldScripts[\s\S]*?)<\/script>/.exec(head);
    expect(release).not.toBeNull();
    const args = release![1].slice(release![1].lastIndexOf(")(") + 2, -1);
    expect(JSON.parse(args)).toEqual([
      'import * as route0 from "/assets/root-B.js";\nimport("/assets/entry.client-A.js");',
    ]);
  });

  it("escapes the held code so that nothing in it can open or close markup inside the release script", () => {
    const tricky = DOC.replace('import("/assets/entry.client-A.js");', 'const s = "<!--<script>" + (1 < 2);');
    const out = prepareDocument(tricky, { stylesheet: "", nonce: "N1", holdScripts: true, pageViewScript: null });
    const release = /<script nonce="N1">(\(function releaseHeldScripts[\s\S]*?)<\/script>/.exec(out)![1];
    const args = release.slice(release.lastIndexOf(")(") + 2, -1);
    expect(args).not.toContain("<");
    expect(JSON.parse(args)).toEqual([
      'import * as route0 from "/assets/root-B.js";\nconst s = "<!--<script>" + (1 < 2);',
    ]);
  });

  it("changes nothing about scripts in a document that has no module script (an error page without them)", () => {
    const plain = "<html><head><title>x</title></head><body><p>hi</p></body></html>";
    expect(prepareDocument(plain, { stylesheet: "a{}", nonce: "N", holdScripts: true, pageViewScript: null })).toBe(
      '<html><head><title>x</title><style data-stylesheet="app">a{}</style></head><body><p>hi</p></body></html>',
    );
    expect(
      prepareDocument("<p>fragment</p>", { stylesheet: "a{}", nonce: "N", holdScripts: true, pageViewScript: null }),
    ).toBe("<p>fragment</p>");
  });

  it("puts the page-view script, under the response's nonce, in the head before the stylesheet and before any held script", () => {
    const out = prepareDocument(DOC, {
      stylesheet: "p{}",
      nonce: "N1",
      holdScripts: true,
      pageViewScript: "sendView()",
    });
    const head = out.split("</head>")[0];
    const view = head.indexOf('<script nonce="N1">sendView()</script>');
    expect(view).toBeGreaterThan(head.indexOf("<title>"));
    expect(view).toBeLessThan(head.indexOf("<style"));
    expect(view).toBeLessThan(head.indexOf("releaseHeldScripts"));
    expect(out.split("sendView()")).toHaveLength(2);
  });
});
