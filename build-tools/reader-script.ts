import { createHash } from "node:crypto";
import path from "node:path";
import { build } from "rolldown";
import type { Plugin } from "vite";

/** The module root.tsx imports the reader script's URL from. */
export const READER_SCRIPT_MODULE = "virtual:inkwell/reader-script";
const RESOLVED = `\0${READER_SCRIPT_MODULE}`;
const SOURCE = path.resolve(import.meta.dirname, "../app/lean/reader.ts");

/** Compiles the reader script (app/lean/reader.ts) into one small minified file, no imports left. */
export async function compileReaderScript(): Promise<string> {
  const result = await build({
    input: SOURCE,
    write: false,
    platform: "browser",
    output: { format: "iife", minify: true, comments: false },
  });
  const chunk = result.output[0];
  if (chunk?.type !== "chunk") throw new Error("the reader script did not compile");
  return chunk.code;
}

/** The hashed file name the reader script is served under (the same code gives the same name). */
export function readerScriptFile(code: string): string {
  const hash = createHash("sha256").update(code).digest("base64url").slice(0, 10).replace(/[-_]/g, "x");
  return `assets/reader-${hash}.js`;
}

/**
 * Anonymous reading pages load no React (docs/decisions/024-lean-reading-pages.md): their
 * behaviours come from one framework-free script. It is built on its own (not one of React
 * Router's chunks), written into the client build's assets as a hashed file, and its URL is
 * what `virtual:inkwell/reader-script` exports. In development the server answers the same URL.
 */
export function readerScript(): Plugin {
  let compiled: Promise<string> | null = null;
  const code = () => {
    compiled ??= compileReaderScript();
    return compiled;
  };
  return {
    name: "inkwell:reader-script",
    resolveId(id) {
      return id === READER_SCRIPT_MODULE ? RESOLVED : null;
    },
    async load(id) {
      if (id !== RESOLVED) return null;
      this.addWatchFile(SOURCE);
      const source = await code();
      const fileName = readerScriptFile(source);
      if (this.environment?.mode === "build" && this.environment.name === "client") {
        this.emitFile({ type: "asset", fileName, source });
      }
      return `export default ${JSON.stringify(`/${fileName}`)};`;
    },
    watchChange(id) {
      if (id === SOURCE) compiled = null;
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if (!req.url?.startsWith("/assets/reader-")) return next();
        const source = await code();
        if (req.url.split("?")[0] !== `/${readerScriptFile(source)}`) return next();
        res.setHeader("Content-Type", "text/javascript; charset=utf-8");
        res.end(source);
      });
    },
  };
}
