// What an upload on the admin Import page is, told by its content rather than its name or
// declared type (docs/decisions/020-importers.md, "Admin page").

/**
 * A zip (a local file header, or the end record of an empty archive), JSON text opening an object
 * (a Ghost export), text opening a tag (XML: a WordPress export), or none of those.
 */
export function sniffImport(bytes: Uint8Array): "zip" | "json" | "xml" | null {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    if ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6)) return "zip";
    return null;
  }
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  if (bytes[i] === 0x7b) return "json";
  return bytes[i] === 0x3c ? "xml" : null;
}
