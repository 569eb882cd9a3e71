import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type busboy from "busboy";
import { lazyModule } from "../lazy-module.server.ts";

// Only uploads read multipart bodies: the parser loads with the first one.
const busboyModule = lazyModule(() => import("busboy"));

export type MultipartResult =
  | { ok: true; fileName: string; data: Buffer; fields: Record<string, string> }
  | { ok: false; reason: "not-multipart" | "no-file" | "too-large" | "too-many-parts" | "malformed" };

/**
 * Reads one file part (field "file") and a few short text fields from a
 * multipart body as it streams. A file past `maxBytes` stops being kept at once
 * and the rest of the body is discarded, so memory never holds more than the limit.
 */
export async function readSingleFile(request: Request, maxBytes: number): Promise<MultipartResult> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;/i.test(contentType) || !request.body) {
    return { ok: false, reason: "not-multipart" };
  }
  const { default: createParser } = await busboyModule();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: MultipartResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    let parser: busboy.Busboy;
    try {
      parser = createParser({
        headers: { "content-type": contentType },
        limits: { files: 1, fileSize: maxBytes, fields: 10, fieldSize: 2000, parts: 12, headerPairs: 20 },
        defParamCharset: "utf8",
      });
    } catch {
      finish({ ok: false, reason: "not-multipart" });
      return;
    }
    const fields: Record<string, string> = {};
    let file: { fileName: string; chunks: Buffer[] } | null = null;
    let tooLarge = false;
    let tooMany = false;

    parser.on("file", (name, stream, info) => {
      if (name !== "file" || file) {
        stream.resume();
        return;
      }
      const current = { fileName: info.filename ?? "", chunks: [] as Buffer[] };
      file = current;
      stream.on("data", (chunk: Buffer) => {
        if (!tooLarge) current.chunks.push(chunk);
      });
      stream.on("limit", () => {
        tooLarge = true;
        current.chunks = [];
        // Stop reading: the answer is known, the rest of the body is not wanted.
        finish({ ok: false, reason: "too-large" });
        body.destroy();
      });
    });
    parser.on("field", (name, value) => {
      fields[name] = value;
    });
    parser.on("filesLimit", () => {
      tooMany = true;
    });
    parser.on("partsLimit", () => {
      tooMany = true;
    });
    parser.on("fieldsLimit", () => {
      tooMany = true;
    });
    parser.on("error", () => finish({ ok: false, reason: tooLarge ? "too-large" : "malformed" }));
    parser.on("close", () => {
      if (tooLarge) return finish({ ok: false, reason: "too-large" });
      if (tooMany) return finish({ ok: false, reason: "too-many-parts" });
      if (!file) return finish({ ok: false, reason: "no-file" });
      const data = Buffer.concat(file.chunks);
      if (data.length === 0) return finish({ ok: false, reason: "no-file" });
      finish({ ok: true, fileName: file.fileName, data, fields });
    });

    const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
    // The server cuts bodies off past its limit; that surfaces here as an error.
    body.on("error", () => finish({ ok: false, reason: "too-large" }));
    body.pipe(parser);
  });
}
