import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import routerConfig from "./react-router.config";
import { drizzleIsMemo } from "./scripts/drizzle-is-memo.js";
import { generateRenditions } from "./scripts/image-renditions.js";

/**
 * Writes the AVIF and WebP renditions into public/images before Vite copies public/ into the build (and before the
 * dev server serves it).
 */
function imageRenditions(): Plugin {
  let done: Promise<unknown> | undefined;
  return {
    name: "honey:image-renditions",
    buildStart() {
      // The client and server builds both start here; one pass serves both.
      done ??= generateRenditions();
      return done.then(() => undefined);
    },
  };
}

/** The framework every page hydrates with: React, React DOM (with its scheduler) and React Router. */
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/;

/**
 * Marks the client chunks that carry the framework with V8's explicit compile hint
 * (`//# allFunctionsCalledOnLoad`, Chrome 136+; other browsers read a comment). Hydration calls a
 * large share of their functions. Without the hint V8 compiles each lazily on the main thread at its
 * first call, inside hydration's tasks; with it, V8 compiles the file while it streams in, off the
 * main thread. The chunk has no source map (client builds emit none), so nothing shifts.
 * App chunks keep lazy compilation: much of their code (handlers, validation) waits for the visitor.
 * See docs/decisions/071-framework-compiled-while-it-downloads.md.
 */
function frameworkCompileHints(): Plugin {
  return {
    name: "honey:framework-compile-hints",
    apply: "build",
    renderChunk: {
      // After minification, which would drop the comment.
      order: "post",
      handler(code, chunk) {
        if (this.environment.config.consumer !== "client") return null;
        if (!chunk.moduleIds.some((id) => FRAMEWORK.test(id))) return null;
        return { code: `//# allFunctionsCalledOnLoad\n${code}`, map: null };
      },
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a Brotli (quality 11) and a gzip (level 9) copy of each script and stylesheet in the client
 * build's assets; server/precompressed-assets.ts serves them. Too slow to do per request, done once here.
 * Files under 1 KB are left as they are, as compression() leaves them: the saving is smaller than
 * the headers. It reads the folder once each build (client, then server) has written everything:
 * React Router writes the route manifest module (decision 070) there during the server build,
 * outside Rollup's client bundle. A file already compressed is skipped.
 */
function precompressAssets(): Plugin {
  // React Router's own default when no build directory is set.
  const assets = path.join(routerConfig.buildDirectory ?? "build", "client", "assets");
  return {
    name: "honey:precompress-assets",
    apply: "build",
    async closeBundle() {
      const names = await readdir(assets).catch(() => [] as string[]);
      const done = new Set(names.filter((name) => name.endsWith(".br")).map((name) => name.slice(0, -3)));
      const files = names.filter((name) => /\.(js|css|svg)$/.test(name) && !done.has(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(assets, name);
          const source = await readFile(file);
          if (source.length < 1024) return;
          await writeFile(`${file}.br`, await brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          await writeFile(`${file}.gz`, await gzipAsync(source, { level: 9 }));
        }),
      );
    },
  };
}

/**
 * Client chunks made only of the admin's own code are named `admin-…`, so a test can tell at a
 * glance that no public page loads one (tests/e2e/admin-bundle.spec.ts).
 */
const ADMIN_CODE = /[\\/]app[\\/](routes[\\/]admin|components[\\/]admin|admin)[\\/]/;
const clientFileName = (chunk: { name: string; moduleIds: string[] }) =>
  chunk.moduleIds.length > 0 && chunk.moduleIds.every((id) => ADMIN_CODE.test(id))
    ? "assets/admin-[name]-[hash].js"
    : "assets/[name]-[hash].js";

/**
 * The small modules nearly every public page imports (toasts, images, SEO tags, money, the site's
 * settings, analytics) as one chunk instead of ten: each script response carries about 1.1 KB of
 * headers, more than most of these modules' code, and the home page went over its 130 KB first-load
 * budget on them (issue 22, decision 089). No admin module is in it. Raw strings make the pattern
 * only because a regex literal cannot wrap onto a second line.
 */
const SITE_KIT = new RegExp(
  String.raw`[\\/]app[\\/](components[\\/]ui[\\/][^\\/]+|lib[\\/](image-renditions|seo|money|dates-in-words|storable-text)` +
    String.raw`|content[\\/]site|settings[\\/]use-site-settings|analytics[\\/]track` +
    // The header's bag count and the footer's WhatsApp link and news sign-up: on every public page too.
    String.raw`|components[\\/](bag[\\/](bag-count|BagLink)|contact[\\/]WhatsAppLink|newsletters[\\/]NewsSignUp)` +
    String.raw`|bag[\\/]bag-limits|newsletters[\\/]sign-up-words)\.tsx?$`,
);
/**
 * The framework (React, React DOM, React Router: every page needs all of it) is one named chunk
 * too, where Rollup had made two: as a dependency of the kit it would otherwise join the kit, and
 * the kit's own code would then get the framework's compile hint (decision 071).
 */
const siteKitChunk = (id: string) => (FRAMEWORK.test(id) ? "framework" : SITE_KIT.test(id) ? "site-kit" : undefined);

export default defineConfig(({ command, isSsrBuild }) => ({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  // The server build carries its own copy of Drizzle, whose `is` answers from memory (decision 151).
  ssr: command === "build" ? { noExternal: ["drizzle-orm"] } : undefined,
  build: {
    // The server bundle starts from the Express app, which imports the React Router build.
    rollupOptions: isSsrBuild
      ? { input: "./server/app.ts" }
      : {
          output: {
            entryFileNames: clientFileName,
            chunkFileNames: clientFileName,
            manualChunks: siteKitChunk,
          },
        },
  },
  plugins: [
    imageRenditions(),
    tailwindcss(),
    reactRouter(),
    frameworkCompileHints(),
    precompressAssets(),
    drizzleIsMemo(),
  ],
}));
