import MarkdownIt from "markdown-it";

/**
 * Post content as Markdown rendered on the server. html:false means any HTML in a post is shown as
 * text, so no script or event handler from a post can run; markdown-it also refuses javascript:,
 * vbscript: and data: (except images) links. External links open in a new tab without an opener.
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: true, breaks: false });

const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));

md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const href = String(token.attrGet("href") ?? "");
  if (/^https?:\/\//i.test(href)) {
    token.attrSet("target", "_blank");
    token.attrSet("rel", "noopener noreferrer");
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

// The post's title is the page's only h1: a "# Heading" in the content becomes an h2, and so on down.
for (const rule of ["heading_open", "heading_close"] as const) {
  md.renderer.rules[rule] = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 1)}`;
    return self.renderToken(tokens, idx, options);
  };
}

export function renderMarkdown(source: string): string {
  return md.render(source);
}
