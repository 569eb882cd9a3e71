/**
 * Which image formats uploads accept, decided by the file's first bytes and its
 * extension together: both must be on the allowlist and name the same format.
 * The declared Content-Type is never trusted.
 */
export type ImageKind = "jpeg" | "png" | "gif" | "webp" | "avif" | "svg";

export const EXTENSIONS: Record<string, ImageKind> = {
  jpg: "jpeg",
  jpeg: "jpeg",
  png: "png",
  gif: "gif",
  webp: "webp",
  avif: "avif",
  svg: "svg",
};

/** The lower-cased extension of a file name, or null when it has none (or a NUL, or a path). */
export function extensionOf(fileName: string): string | null {
  if (fileName.includes("\0")) return null;
  const base = fileName.split(/[/\\]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  if (dot <= 0 || dot === base.length - 1) return null;
  return base.slice(dot + 1).toLowerCase();
}

const ascii = (buf: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...buf.subarray(start, Math.min(end, buf.length)));

/** The format the bytes say they are, or null. */
export function sniffImage(buf: Uint8Array): ImageKind | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return "jpeg";
  if (buf.length >= 8 && ascii(buf, 0, 8) === "\x89PNG\r\n\x1a\n") return "png";
  if (buf.length >= 6 && /^GIF8[79]a$/.test(ascii(buf, 0, 6))) return "gif";
  if (buf.length >= 12 && ascii(buf, 0, 4) === "RIFF" && ascii(buf, 8, 12) === "WEBP") return "webp";
  if (buf.length >= 16 && ascii(buf, 4, 8) === "ftyp") {
    // ISO-BMFF: the major brand, then compatible brands up to the box's size.
    const boxSize = Math.min(((buf[0] ?? 0) << 24) | ((buf[1] ?? 0) << 16) | ((buf[2] ?? 0) << 8) | (buf[3] ?? 0), 64);
    for (let at = 8; at + 4 <= boxSize; at += 4) {
      if (at === 12) continue; // minor version
      const brand = ascii(buf, at, at + 4);
      if (brand === "avif" || brand === "avis") return "avif";
    }
    return null;
  }
  if (looksLikeSvg(buf)) return "svg";
  return null;
}

/** Text that opens (after a BOM, XML declaration, comments and white space) with an <svg> element. */
function looksLikeSvg(buf: Uint8Array): boolean {
  const head = new TextDecoder("utf-8", { fatal: false }).decode(buf.subarray(0, 4096));
  const rest = head
    .replace(/^\uFEFF/, "")
    .replace(/^\s*<\?xml[^>]*\?>/, "")
    .replace(/^(\s*<!--[\s\S]*?-->)*/, "")
    .trimStart();
  return /^<svg[\s>]/i.test(rest);
}

export type KindCheck = { ok: true; kind: ImageKind } | { ok: false; reason: "extension" | "content" | "mismatch" };

/** The file is accepted only when its extension and its bytes agree on an allowed format. */
export function checkImageKind(fileName: string, head: Uint8Array): KindCheck {
  const ext = extensionOf(fileName);
  const byName = ext ? EXTENSIONS[ext] : undefined;
  if (!byName) return { ok: false, reason: "extension" };
  const byBytes = sniffImage(head);
  if (!byBytes) return { ok: false, reason: "content" };
  if (byBytes !== byName) return { ok: false, reason: "mismatch" };
  return { ok: true, kind: byBytes };
}
