import { createHash } from "node:crypto";
import path from "node:path";
import { build } from "rolldown";
import type { Plugin } from "vite";

/** The module root.tsx imports the reader script's URL from. */
export const READER_SCRIPT_MODULE = "virtual:inkwell/reader-script";
const RESOLVED = `\0${READER_SCRIPT_MODULE}`;
/** The module root.tsx imports app pages' inline copy-button script from (its code, as a string). */
export const CODE_COPY_MODULE = "virtual:inkwell/code-copy-script";
const RESOLVED_CODE_COPY = `\0${CODE_COPY_MODULE}`;
const LEAN = path.resolve(import.meta.dirname, "../app/lean");
const SOURCE = path.join(LEAN, "reader.ts");
const CODE_COPY_SOURCE = path.join(LEAN, "code-copy-entry.ts");

/** Compiles `input` into one small minified classic script, no imports left. */
async function compileScript(input: string): Promise<string> {
  const result = await build({
    input,
    write: false,
    platform: "browser",
    output: { format: "iife", minify: true, comments: false },
  });
  const chunk = result.output[0];
  if (chunk?.type !== "chunk") throw new Error(`${path.basename(input)} did not compile`);
  return chunk.code;
}

/** Compiles the reader script (app/lean/reader.ts). */
export function compileReaderScript(): Promise<string> {
  return compileScript(SOURCE);
}

/**
 * Compiles the copy buttons alone (app/lean/code-copy.ts, the same code the reader script
 * has), for app pages to inline with the nonce.
 */
export function compileCodeCopyScript(): Promise<string> {
  return compileScript(CODE_COPY_SOURCE);
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
 * `virtual:inkwell/code-copy-script` exports the copy buttons' code for app pages to inline.
 */
export function readerScript(): Plugin {
  let compiled: Promise<string> | null = null;
  let compiledCopy: Promise<string> | null = null;
  const code = () => {
    compiled ??= compileReaderScript();
    return compiled;
  };
  return {
    name: "inkwell:reader-script",
    resolveId(id) {
      if (id === READER_SCRIPT_MODULE) return RESOLVED;
      return id === CODE_COPY_MODULE ? RESOLVED_CODE_COPY : null;
    },
    async load(id) {
      if (id === RESOLVED_CODE_COPY) {
        this.addWatchFile(CODE_COPY_SOURCE);
        compiledCopy ??= compileCodeCopyScript();
        return `export default ${JSON.stringify(await compiledCopy)};`;
      }
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
      // Either script may import any file of app/lean.
      if (id.startsWith(LEAN)) {
        compiled = null;
        compiledCopy = null;
      }
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
