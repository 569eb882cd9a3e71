/**
 * Uploaded images are addressed as /media/{id}/{file}: {id} is the media row,
 * {file} the main file ("image.jpg") or a WebP variant ("640.webp"). Content
 * (posts, slides, ads, links, settings) stores these site-relative paths.
 */
export const MEDIA_URL_RE = /^\/media\/([0-9a-z]{20})\/([a-z0-9]{1,20}\.(?:jpg|png|gif|webp))$/;

export function mediaUrl(id: string, file: string): string {
  return `/media/${id}/${file}`;
}

/** The media id an address points at, or null when it is not one of ours. */
export function mediaIdFromUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const match = MEDIA_URL_RE.exec(url.split(/[?#]/, 1)[0] ?? "");
  return match?.[1] ?? null;
}

export interface MediaVariant {
  file: string;
  width: number;
  height: number;
}

/** `srcset` from the WebP variants: "…/320.webp 320w, …/640.webp 640w". */
export function mediaSrcSet(id: string, variants: readonly MediaVariant[]): string {
  return variants.map((v) => `${mediaUrl(id, v.file)} ${v.width}w`).join(", ");
}

/** How wide a post image is shown: the article column, or the screen on phones. */
export const BODY_IMAGE_SIZES = "(min-width: 48rem) 48rem, 100vw";

/** What pages need to show one uploaded image without layout shift. */
export interface MediaImage {
  id: string;
  src: string;
  width: number;
  height: number;
  /** WebP `srcset`; empty when there are no variants. */
  srcSet: string;
}

/** The upload size limit, as people read it ("10 MB"). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

export const MEDIA_SORTS = ["newest", "oldest", "name", "size"] as const;
export type MediaSort = (typeof MEDIA_SORTS)[number];

/** Where an admin edits the thing that uses an image. */
export function usageHref(usage: { kind: string; id: string }): string {
  switch (usage.kind) {
    case "post":
      return `/posts/edit/${usage.id}`;
    case "swaper":
      return `/admin/swapers/${usage.id}`;
    case "ad":
      return `/admin/ads/${usage.id}`;
    case "link":
      return `/admin/links/${usage.id}`;
    case "avatar":
      // Only its owner edits an avatar (on /account); the admin finds the person here.
      return "/admin/users";
    default:
      return "/admin/config";
  }
}

/** The image files among a paste or a drop. */
export function imageFiles(list: FileList | null | undefined): File[] {
  return list ? [...list].filter((f) => f.type.startsWith("image/")) : [];
}

/** Markdown for an uploaded image with the description its author gave (one line, no brackets). */
export function imageMarkdown(alt: string, url: string): string {
  const description = alt
    .replace(/[[\]\\]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return `![${description}](${url})`;
}
