import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { precompress } from "./build-tools/precompress.ts";
import { readerScript } from "./build-tools/reader-script.ts";

const NAMED_ENTRIES = new Set(["comment-worker", "import-worker", "upload-check-worker", "serve"]);

/**
 * The server bundle has four more entries: the comment renderer's, the import's and the
 * upload check's worker threads, and the serving entry (server.ts, which `npm start` runs as plain JavaScript).
 * React Router names every server entry `index.js` (the next become `index2.js`,
 * `index3.js`); this keeps their names, which the server and scripts/build-if-stale.js look
 * for next to index.js.
 */
function namedServerEntries(): Plugin {
  return {
    name: "inkwell:named-server-entries",
    applyToEnvironment: (environment) => environment.name === "ssr",
    outputOptions(options) {
      const main = options.entryFileNames;
      return {
        ...options,
        entryFileNames: (chunk) =>
          NAMED_ENTRIES.has(chunk.name)
            ? `${chunk.name}.js`
            : typeof main === "function"
              ? main(chunk)
              : (main ?? "index.js"),
      };
    },
  };
}

// The server bundle's entry is our own HTTP app (app/server/app.server.ts), which
// imports React Router's server build; server.ts, bundled as serve.js, runs it in
// production.
export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), readerScript(), precompress(), namedServerEntries()],
  environments: {
    ssr: {
      build: {
        rollupOptions: {
          input: {
            index: "./app/server/app.server.ts",
            "comment-worker": "./app/server/comments/markdown-worker.server.ts",
            "import-worker": "./app/server/import/render-worker.server.ts",
            "upload-check-worker": "./app/server/import/upload-check-worker.server.ts",
            serve: "./server.ts",
          },
        },
      },
    },
  },
});
