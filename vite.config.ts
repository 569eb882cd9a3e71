import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { precompress } from "./build-tools/precompress.ts";
import { readerScript } from "./build-tools/reader-script.ts";

/**
 * The server bundle has a second entry, the comment renderer's worker thread. React Router
 * names every server entry `index.js` (the second becomes `index2.js`); this keeps the
 * worker's name, which the server looks for next to index.js.
 */
function namedWorkerEntry(): Plugin {
  return {
    name: "inkwell:named-worker-entry",
    applyToEnvironment: (environment) => environment.name === "ssr",
    outputOptions(options) {
      const main = options.entryFileNames;
      return {
        ...options,
        entryFileNames: (chunk) =>
          chunk.name === "comment-worker"
            ? "comment-worker.js"
            : typeof main === "function"
              ? main(chunk)
              : (main ?? "index.js"),
      };
    },
  };
}

// The server bundle's entry is our own HTTP app (app/server/app.server.ts), which
// imports React Router's server build; server.ts runs it in production.
export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), readerScript(), precompress(), namedWorkerEntry()],
  environments: {
    ssr: {
      build: {
        rollupOptions: {
          input: { index: "./app/server/app.server.ts", "comment-worker": "./app/server/markdown-worker.server.ts" },
        },
      },
    },
  },
});
