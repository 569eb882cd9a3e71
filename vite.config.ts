import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { precompress } from "./build-tools/precompress.ts";

// The server bundle's entry is our own HTTP app (app/server/app.server.ts), which
// imports React Router's server build; server.ts runs it in production.
export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), precompress()],
  environments: {
    ssr: {
      build: {
        rollupOptions: { input: "./app/server/app.server.ts" },
      },
    },
  },
});
