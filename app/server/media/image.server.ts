import type { Metadata, Sharp, SharpOptions } from "sharp";
import type { ImageKind } from "./sniff.server.ts";

/** Widths of the WebP variants pages offer in `srcset` (each only when smaller than the image). */
export const VARIANT_WIDTHS = [320, 640, 1024, 1600] as const;
/** The widest file kept: larger images are scaled down to this. */
export const MAX_STORED_WIDTH = 1600;
/** Decompression-bomb guard: more pixels than this (per frame) are refused before decoding. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Animated images with more frames than this are refused. */
export const MAX_FRAMES = 300;

export type ImageErrorCode = "invalid-format" | "too-many-pixels" | "unsafe-svg";

export class ImageError extends Error {
  override name = "ImageError";
  readonly code: ImageErrorCode;
  constructor(code: ImageErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.code = code;
  }
}

export interface EncodedFile {
  data: Buffer;
  contentType: string;
  /** The stored file's name inside the upload's folder, e.g. "640.webp" or "image.jpg". */
  file: string;
  width: number;
  height: number;
}

export interface ProcessedImage {
  /** Oriented size of what was uploaded. */
  sourceWidth: number;
  sourceHeight: number;
  /** The main file (JPEG, PNG or GIF), at most MAX_STORED_WIDTH wide: every browser shows it. */
  fallback: EncodedFile;
  /** WebP files, narrowest first; the last one has the fallback's size. */
  variants: EncodedFile[];
}

type SharpModule = typeof import("sharp")["default"];
let loading: Promise<SharpModule> | undefined;

/**
 * sharp (libvips) is loaded on the first upload, not at start: most processes never
 * process an image, and the library costs ~25 MiB of memory once loaded. Its operation
 * cache is off: uploads are rare and each image is new, so it would only hold memory.
 */
function loadSharp(): Promise<SharpModule> {
  loading ??= import("sharp").then((mod): SharpModule => {
    mod.default.cache(false);
    return mod.default;
  });
  return loading;
}

const INPUT: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", sequentialRead: true };

/**
 * SVG is accepted only through rasterizing: the stored file is a PNG, so no script,
 * event handler or external reference can survive. Documents with a DOCTYPE or
 * entities (XXE, entity expansion) are refused before the parser sees them.
 */
async function svgToPng(buf: Buffer): Promise<Buffer> {
  const text = buf.toString("utf8");
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    throw new ImageError("unsafe-svg", "SVG files with a DOCTYPE or entities are refused.");
  }
  const sharp = await loadSharp();
  return sharp(buf, INPUT)
    .png()
    .toBuffer()
    .catch((cause: unknown) => {
      throw new ImageError("invalid-format", "The SVG could not be read.", { cause });
    });
}

function isPixelLimit(error: unknown): boolean {
  return error instanceof Error && /pixel limit/i.test(error.message);
}

/**
 * Re-encodes an upload: auto-oriented, every metadata block (EXIF, GPS, XMP, ICC
 * comments) dropped, scaled to at most MAX_STORED_WIDTH, plus WebP variants.
 * Anything appended to the image (an HTML/JPEG polyglot's tail) is not carried over.
 */
export async function processImage(input: Buffer, kind: ImageKind): Promise<ProcessedImage> {
  const source = kind === "svg" ? await svgToPng(input) : input;
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(source, INPUT).metadata();
  } catch (cause) {
    if (isPixelLimit(cause)) throw new ImageError("too-many-pixels", "The image has too many pixels.", { cause });
    throw new ImageError("invalid-format", "The file is not a readable image.", { cause });
  }
  const frameHeight = meta.pageHeight ?? meta.height;
  if (!meta.width || !frameHeight) throw new ImageError("invalid-format", "The file is not a readable image.");
  if (meta.width * frameHeight > MAX_INPUT_PIXELS) {
    throw new ImageError("too-many-pixels", "The image has too many pixels.");
  }
  const pages = meta.pages ?? 1;
  if (pages > MAX_FRAMES) throw new ImageError("too-many-pixels", "The animation has too many frames.");
  const animated = pages > 1 && (kind === "gif" || kind === "webp");

  const oriented = (meta.orientation ?? 1) >= 5;
  const sourceWidth = oriented ? frameHeight : meta.width;
  const sourceHeight = oriented ? meta.width : frameHeight;
  const mainWidth = Math.min(sourceWidth, MAX_STORED_WIDTH);

  const open = (): Sharp => sharp(source, { ...INPUT, animated }).autoOrient();
  const encode = async (pipeline: Sharp, file: string, contentType: string): Promise<EncodedFile> => {
    try {
      const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
      const height = animated ? (info.pageHeight ?? info.height) : info.height;
      return { data, contentType, file, width: info.width, height };
    } catch (cause) {
      if (isPixelLimit(cause)) throw new ImageError("too-many-pixels", "The image has too many pixels.", { cause });
      throw new ImageError("invalid-format", "The image could not be converted.", { cause });
    }
  };

  const resized = (width: number): Sharp => open().resize({ width, withoutEnlargement: true });
  let fallback: Promise<EncodedFile>;
  if (animated) {
    fallback = encode(resized(mainWidth).gif(), "image.gif", "image/gif");
  } else if (meta.hasAlpha) {
    fallback = encode(resized(mainWidth).png({ compressionLevel: 9 }), "image.png", "image/png");
  } else {
    fallback = encode(resized(mainWidth).jpeg({ quality: 82, mozjpeg: true }), "image.jpg", "image/jpeg");
  }
  const widths = [...VARIANT_WIDTHS.filter((w) => w < mainWidth), mainWidth];
  const variants: EncodedFile[] = [];
  // One at a time: a small server should not decode the same large image four times at once.
  for (const width of widths) {
    variants.push(await encode(resized(width).webp({ quality: 80 }), `${width}.webp`, "image/webp"));
  }
  return { sourceWidth, sourceHeight, fallback: await fallback, variants };
}
