import { createWriteStream, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type busboy from "busboy";
import { lazyModule } from "../platform/lazy-module.server.ts";

// Only uploads read multipart bodies: the parser loads with the first one.
const busboyModule = lazyModule(() => import("busboy"));

type Refusal = { ok: false; reason: "not-multipart" | "no-file" | "too-large" | "too-many-parts" | "malformed" };

export type MultipartResult = { ok: true; fileName: string; data: Buffer; fields: Record<string, string> } | Refusal;

/** The first bytes of a file saved by saveSingleFile: enough to tell what it is. */
export const SAVED_HEAD_BYTES = 64 * 1024;

export type SavedFileResult =
  | { ok: true; fileName: string; bytes: number; head: Buffer; fields: Record<string, string> }
  | Refusal;

/**
 * readSingleFile for large files: the file part is written to `target` as it streams (memory holds
 * a chunk, never the file) and only its first SAVED_HEAD_BYTES are kept. Nothing is left at
 * `target` unless the answer is ok.
 */
export async function saveSingleFile(request: Request, maxBytes: number, target: string): Promise<SavedFileResult> {
  let out: WriteStream | null = null;
  let failed: Error | null = null;
  let bytes = 0;
  const head: Buffer[] = [];
  let headBytes = 0;
  const result = await readParts(request, maxBytes, {
    write(chunk) {
      if (!out) {
        out = createWriteStream(target);
        out.on("error", (error) => {
          failed = error;
        });
      }
      bytes += chunk.length;
      if (headBytes < SAVED_HEAD_BYTES) {
        const part = chunk.subarray(0, SAVED_HEAD_BYTES - headBytes);
        head.push(Buffer.from(part));
        headBytes += part.length;
      }
      return out.write(chunk);
    },
    drain: (resume) => {
      if (out) out.once("drain", resume);
      else resume();
    },
  });
  const written = out as WriteStream | null;
  if (written) await new Promise<void>((resolve) => written.end(() => resolve()));
  if (!result.ok || bytes === 0 || failed) {
    await rm(target, { force: true });
    if (failed) throw failed;
    return result.ok ? { ok: false, reason: "no-file" } : result;
  }
  return { ok: true, fileName: result.fileName, bytes, head: Buffer.concat(head), fields: result.fields };
}

/**
 * Reads one file part (field "file") and a few short text fields from a
 * multipart body as it streams. A file past `maxBytes` stops being kept at once
 * and the rest of the body is discarded, so memory never holds more than the limit.
 */
export async function readSingleFile(request: Request, maxBytes: number): Promise<MultipartResult> {
  let chunks: Buffer[] = [];
  const result = await readParts(request, maxBytes, {
    write(chunk) {
      chunks.push(chunk);
      return true;
    },
    drain: (resume) => resume(),
    discard() {
      chunks = [];
    },
  });
  if (!result.ok) return result;
  const data = Buffer.concat(chunks);
  if (data.length === 0) return { ok: false, reason: "no-file" };
  return { ok: true, fileName: result.fileName, data, fields: result.fields };
}

/** Where the file part's bytes go: `write` answers false when the reader should wait for `drain`. */
interface FileSink {
  write(chunk: Buffer): boolean;
  drain(resume: () => void): void;
  discard?(): void;
}

type PartsResult = { ok: true; fileName: string; fields: Record<string, string> } | Refusal;

async function readParts(request: Request, maxBytes: number, sink: FileSink): Promise<PartsResult> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;/i.test(contentType) || !request.body) {
    return { ok: false, reason: "not-multipart" };
  }
  const { default: createParser } = await busboyModule();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PartsResult) => {
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
    let file: { fileName: string } | null = null;
    let tooLarge = false;
    let tooMany = false;

    parser.on("file", (name, stream, info) => {
      if (name !== "file" || file) {
        stream.resume();
        return;
      }
      file = { fileName: info.filename ?? "" };
      stream.on("data", (chunk: Buffer) => {
        if (tooLarge || sink.write(chunk)) return;
        // The sink is behind (a disk): the part waits for it.
        stream.pause();
        sink.drain(() => stream.resume());
      });
      stream.on("limit", () => {
        tooLarge = true;
        sink.discard?.();
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
      finish({ ok: true, fileName: file.fileName, fields });
    });

    const body = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
    // The server cuts bodies off past its limit; that surfaces here as an error.
    body.on("error", () => finish({ ok: false, reason: "too-large" }));
    body.pipe(parser);
  });
}
