import { buffer } from "node:stream/consumers";
import type { DB } from "../db/db.server.ts";
import { MEDIA_CACHE_CONTROL } from "../media/media.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";

// The site icon (issue 48): one upload, and the sizes browsers and phones ask for made from
// it once, when the brand is saved. They are stored in the upload's own folder, so the media
// library's garbage collection counts them as the upload's.

/** File name → square size in pixels: the favicon, Apple's touch icon, the web manifest's two. */
export const ICON_SIZES = { "i32.png": 32, "i180.png": 180, "i192.png": 192, "i512.png": 512 } as const;
export type IconFile = keyof typeof ICON_SIZES;

/** `/media/{id}/{file}` of an icon size, from the icon upload's address. */
export function iconUrl(upload: string, file: IconFile): string {
  return upload.replace(/\/[^/]+$/, `/${file}`);
}

/**
 * Makes the icon sizes from the upload at `upload` ("/media/{id}/{file}"), each centred on a
 * transparent square. False when the upload is not there.
 */
export async function makeIcons(db: DB, storage: StorageDriver, upload: string): Promise<boolean> {
  const id = /^\/media\/([0-9a-z]{20})\//.exec(upload)?.[1];
  if (!id) return false;
  const row = await db.selectFrom("media").select("name").where("id", "=", id).executeTakeFirst();
  if (!row) return false;
  const source = await buffer((await storage.get(row.name)).body);
  const { default: sharp } = await import("sharp");
  for (const [file, size] of Object.entries(ICON_SIZES)) {
    const data = await sharp(source, { limitInputPixels: 40_000_000 })
      .resize(size, size, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    await storage.put(`${id}/${file}`, data, { contentType: "image/png", cacheControl: MEDIA_CACHE_CONTROL });
  }
  return true;
}
