import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** Files worth compressing ahead of time: text assets of at least this size. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|map)$/;
const MIN_BYTES = 1024;

/** Writes `.br` and `.gz` beside every compressible file under `dir`; returns how many files it did. */
export function precompressDirectory(dir: string): number {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      count += precompressDirectory(file);
      continue;
    }
    if (!COMPRESSIBLE.test(entry.name) || statSync(file).size < MIN_BYTES) continue;
    const data = readFileSync(file);
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
    );
    writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
    count += 1;
  }
  return count;
}

/**
 * Hashed client assets never change, so they are compressed once, at build time,
 * at the highest levels; the server sends the `.br` or `.gz` file as negotiated.
 */
export function precompress(): Plugin {
  return {
    name: "inkwell-precompress",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    writeBundle(options) {
      if (options.dir) precompressDirectory(path.join(options.dir, "assets"));
    },
  };
}
