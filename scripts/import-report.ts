import type { ImportCounts, ImportReportLine } from "../app/server/import/core.server.ts";

// How the import commands print a report: each line with its reason in words, and the counts.

export const REASONS: Record<string, string> = {
  unchanged: "unchanged since the last import",
  editedSinceImport: "edited on this site since it was imported: left as it is",
  inTrash: "in the trash: left there",
  bodyTooLong: "body longer than 200,000 characters",
  bodyTooDeep: "body nested too deeply",
  fileTooLarge: "file larger than 1 MiB",
  frontMatterInvalid: "front matter does not parse",
  frontMatterUnclosed: "front matter is never closed",
  frontMatterTooLarge: "front matter larger than 64 KiB",
  frontMatterAliases: "front matter refused: too many YAML aliases (an alias bomb?)",
  pairingAmbiguous: "languages could not be paired",
  notFound: "no such file in the folder",
  outside: "outside the folder: not read",
  tooLarge: "larger than UPLOAD_MAX_BYTES",
  "invalid-format": "not an image the site accepts",
  "unsafe-svg": "an SVG with script: refused",
  "too-many-pixels": "too many pixels",
  redirectExists: "old address already redirects elsewhere: kept",
  redirectInvalid: "old address cannot be redirected",
  titleCut: "title cut to 200 characters",
  summaryCut: "summary cut to 500 characters",
  tagsCut: "more than 10 tags: the first 10 kept",
  dateInvalid: "date not understood: none set",
  statusMixed: "one language is a draft: imported as a draft",
  zipEntryUnsafe: "a zip entry whose name leads out of the folder: not unpacked",
  zipEntryBroken: "a zip entry that does not unpack",
  zipTruncated: "the zip ends in the middle of an entry",
  ghostKeptAsHtml: "a Ghost card kept as HTML (sanitised when shown)",
  ghostFlattened: "HTML nested too deeply: kept as text",
  ghostNoHtml: "no HTML or Lexical in the export (Mobiledoc only): plain text kept",
  ghostAuthor: "written by (the posts belong to the importing account)",
  ghostMembersOnly: "members-only in Ghost: public here",
  ghostStatus: "unknown Ghost status: imported as a draft",
  ghostNoId: "a Ghost post without an id",
  ghostDuplicateId: "a second Ghost post with the same id",
  ghostCoAuthors: "co-authors in Ghost (the post has one author here: the first)",
  ghostAuthorUnknown: "the post's Ghost author is not in the export: the importing account is its author",
  ghostLexicalUnknown: "a Lexical node not converted (its text was kept)",
  ghostLexicalDropped: "a Ghost card with nothing to show here (sign-up form, paywall, e-mail only): left out",
  ghostLexicalInvalid: "the Lexical body does not parse",
  imageRemoteKept: "remote image kept as a link (--fetch-remote fetches it)",
  imageRemoteFetch: "remote image, fetched when imported",
  remoteUrl: "remote image: not an http(s) address it may fetch",
  remotePrivate: "remote image on a private, loopback or link-local address: refused",
  remoteDns: "remote image: its host does not resolve",
  remoteTimeout: "remote image: timed out",
  remoteTooLarge: "remote image larger than UPLOAD_MAX_BYTES",
  remoteType: "remote address is not an image",
  remoteStatus: "remote image: the server did not answer 200",
  remoteRedirects: "remote image: too many redirects",
  remoteError: "remote image: could not be fetched",
  authorCreated: "author account made for this Ghost author (no login)",
  authorMatched: "Ghost author matched to an existing account by e-mail",
  commentCut: "comment cut to 5,000 characters",
  commentTooDeep: "comment nested too deeply: left out",
  wpShortcodeKept: "shortcode kept as text",
  wpKeptAsHtml: "kept as HTML (sanitised when shown)",
  wpGalleryEmpty: "a [gallery] without pictures in the export: left out",
  wpCommentsSpam: "spam or trashed comments left out",
  wpPingbacks: "pingbacks and trackbacks left out",
  wpAuthor: "written by (the posts belong to the importing account)",
  wpPrivate: "private in WordPress: imported as a draft",
  wpPassword: "password-protected in WordPress: imported as a draft",
  wpStatus: "unknown WordPress status: imported as a draft",
  wpThumbnailMissing: "featured image not in the export",
  wpTrash: "in WordPress's trash: not imported",
  wpAutoDraft: "an empty auto-draft: not imported",
  wpPostType: "items of this type are not imported",
  wpNoId: "a WordPress item without a numeric id",
  wpDuplicateId: "a second WordPress item with the same id",
};

export function reportLine(line: ImportReportLine): string {
  const reason = line.reason ? (REASONS[line.reason] ?? line.reason) : "";
  const detail = line.detail ? ` (${line.detail})` : "";
  return `  ${line.outcome.padEnd(12)} ${line.item}${reason ? `: ${reason}` : ""}${detail}`;
}

export function countsLine(c: ImportCounts): string {
  return (
    `imported ${c.imported}, updated ${c.updated}${c.pages > 0 ? `, pages ${c.pages}` : ""}, skipped ${c.skipped}, failed ${c.failed}; ` +
    `images stored ${c.imagesStored}, missing ${c.imagesMissing}; redirects added ${c.redirectsAdded}` +
    (c.commentsAdded > 0 ? `; comments added ${c.commentsAdded}` : "")
  );
}
