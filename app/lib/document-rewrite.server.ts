import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/**
 * Collects a streamed HTML document and sends it on rewritten. Every page here renders whole at
 * once (no deferred data, so React's shell is the entire document), so holding it back costs
 * nothing and the rewrite works on one complete string.
 */
export function rewriteStream(rewrite: (html: string) => Buffer[]): Transform {
  // A decoder, not chunk.toString(): a chunk may end in the middle of a multi-byte character.
  const decoder = new StringDecoder("utf8");
  let html = "";
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      html += typeof chunk === "string" ? chunk : decoder.write(chunk);
      callback();
    },
    flush(callback) {
      html += decoder.end();
      let bytes: Buffer[];
      try {
        bytes = rewrite(html);
      } catch (error) {
        return callback(error as Error);
      }
      for (const chunk of bytes) this.push(chunk);
      callback();
    },
  });
}

export interface DocumentOptions {
  /** The response's CSP nonce, for the inline scripts added. */
  nonce: string;
  /** Hold the app's scripts back until the first screen has been drawn (production). */
  holdScripts: boolean;
  /** The page's own page-view script (app/analytics/page-view-script.server.ts), or null for none. */
  pageViewScript: string | null;
}

/** A document as `prepareDocument` leaves it: `head`, the stylesheet's tag when `stylesheet`, then `rest`. */
export interface DocumentPieces {
  head: string;
  stylesheet: boolean;
  rest: string;
}

const MODULE_PRELOAD = /<link rel="modulepreload" href="[^"]+"[^>]*\/>/g;
const MODULE_SCRIPT = /(<script[^>]* type="module"[^>]*>)([\s\S]*?)<\/script>/g;

/** JSON that is safe inside an inline <script> (no "</script>", no HTML comment openers). */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/**
 * The browser-side half of holding scripts back, sent as source (it must not use anything outside
 * itself). It runs React Router's bootstrap, which the server took out of its (now empty) module
 * script, once the first screen is complete: after the load event (the first screen's fonts and
 * images are in) and after the frame that paints them. Until then the scripts neither share the
 * phone's link with those images nor hold up their paint; the server-rendered page already works
 * (its links and forms need no JavaScript). The bootstrap's imports are found by the browser as it
 * loads the module graph: inserting a preload link per chunk cost a 20-30 ms task on its own.
 * A hidden tab draws no frames, so there it starts at the load event. Everything goes into the
 * head: a new child of the body (a flex container) would make the browser lay the page out again.
 */
function releaseHeldScripts(code: string[]) {
  const nonce = (document.currentScript as HTMLScriptElement).nonce;
  const release = () => {
    for (const text of code) {
      const script = document.createElement("script");
      script.type = "module";
      script.nonce = nonce;
      script.textContent = text;
      document.head.append(script);
    }
  };
  // The callback runs just before the next frame is drawn; the timeout, once it has been drawn.
  const afterLoad = () =>
    document.visibilityState === "hidden" ? release() : requestAnimationFrame(() => setTimeout(release, 0));
  if (document.readyState === "complete") afterLoad();
  else addEventListener("load", afterLoad, { once: true });
}

function releaseScript(code: string[]): string {
  return `(${releaseHeldScripts.toString()})(${scriptJson(code)})`;
}

/**
 * The document as sent, cut where the site's stylesheet goes (its tag is the same in every page, so
 * `encodeDocument` adds it from bytes made once):
 * - the page-view script, when given, first in what is added, so the view is sent as the head is parsed;
 * - the stylesheet inline, so the first paint needs the HTML alone (no second round trip);
 * - with `holdScripts`, the app's JavaScript starts downloading only once the first screen has been
 *   drawn, images and all. On a phone's slow link the ~120 KB of React and route code otherwise
 *   competes with the first screen's fonts and images, and its evaluation holds up their paint. The
 *   page is server-rendered and its links and forms work before hydration: nothing is lost meanwhile.
 * See docs/decisions/063-first-paint-needs-the-html-alone.md.
 */
export function prepareDocument(html: string, { nonce, holdScripts, pageViewScript }: DocumentOptions): DocumentPieces {
  const headEnd = html.indexOf("</head>");
  if (headEnd === -1) return { head: html, stylesheet: false, rest: "" };
  // The page view goes out before the stylesheet is even parsed: a visitor who leaves at once is counted.
  const pageView = pageViewScript ? `<script nonce="${nonce}">${pageViewScript}</script>` : "";
  let head = html.slice(0, headEnd);
  let body = html.slice(headEnd);
  if (!holdScripts) return { head: head + pageView, stylesheet: true, rest: body };

  const code: string[] = [];
  // The tag stays, empty, so that hydration finds the element React Router renders there.
  body = body.replace(MODULE_SCRIPT, (_whole, open: string, inline: string) => {
    code.push(inline);
    return `${open}</script>`;
  });
  if (code.length === 0) return { head: head + pageView, stylesheet: true, rest: body };
  head = head.replace(MODULE_PRELOAD, "");
  return {
    head: head + pageView,
    stylesheet: true,
    rest: `<script nonce="${nonce}">${releaseScript(code)}</script>${body}`,
  };
}
