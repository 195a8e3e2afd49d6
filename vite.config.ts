import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { generateRenditions } from "./scripts/image-renditions.js";

/** Writes the WebP renditions into public/images before Vite copies public/ into the build (and before the dev server serves it). */
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

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  build: {
    // The server bundle starts from the Express app, which imports the React Router build.
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : undefined,
  },
  plugins: [imageRenditions(), tailwindcss(), reactRouter()],
}));
