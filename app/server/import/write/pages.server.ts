import type { Transaction } from "kysely";
import { PAGE_LIMITS, slugFromTitle } from "../../../lib/schemas/page.ts";
import type { Database } from "../../db/schema.server.ts";
import { createPage, getPage, type PageFields, pageSlugRefusal, updatePage } from "../../pages/pages.server.ts";
import { newId } from "../../platform/ids.server.ts";
import type { ImportedPost, ImportReportLine } from "../core.server.ts";
import { mappingOf, rememberTarget } from "../import-sources.server.ts";
import type { ImportJob, Prepared } from "../job/types.server.ts";

// One prepared page (an item with `kind: "page"`) written in its chunk's transaction to the
// pages table (decision 035, "Importing pages"): created at a free address, or updated when the
// source changed and the page was not edited here since, or skipped with a reason; its mapping
// (entity `page`) moved to the source's hash and the page's new version, as a post's is.

export type WrittenPage =
  | { outcome: "imported" | "updated"; pageId: string; slug: string }
  | { outcome: "skipped"; reason: string }
  | { outcome: "failed"; reason: string };

/** The page's fields from a prepared item: both languages where the source gives them. */
function pageFields(p: Prepared, slug: string, lines: ImportReportLine[]): PageFields {
  const { post } = p;
  const of = (locale: "en" | "zh") => p.translations.find((t) => t.locale === locale);
  const en = of("en");
  const zh = of("zh");
  // A page has no schedule: one the source will publish later waits here as a draft.
  if (post.status === "scheduled") lines.push({ item: post.label, outcome: "note", reason: "pageScheduledAsDraft" });
  if (post.cover) lines.push({ item: post.label, outcome: "note", reason: "pageCoverDropped" });
  if ((post.comments?.length ?? 0) > 0)
    lines.push({ item: post.label, outcome: "note", reason: "pageCommentsDropped" });
  const title = (t: typeof en) => (t ? t.title.slice(0, PAGE_LIMITS.titleMax).trim() : "");
  const description = (t: typeof en) => (t ? t.summary.slice(0, PAGE_LIMITS.descriptionMax).trim() : "");
  return {
    slug,
    status: post.status === "published" ? "published" : "draft",
    titleEn: title(en),
    titleZh: title(zh),
    bodyEn: en?.bodyMarkdown ?? "",
    bodyZh: zh?.bodyMarkdown ?? "",
    descriptionEn: description(en),
    descriptionZh: description(zh),
  };
}

/** The address the source gives the page (its slug, else its title's, else its file's), or null. */
function wantedSlug(post: ImportedPost): string | null {
  const en = post.translations.find((t) => t.locale === "en")?.title ?? "";
  const file =
    post.sourceId
      .split("/")
      .pop()
      ?.replace(/^file:/, "")
      .replace(/\.(md|markdown)$/i, "") ?? "";
  const fromSource = post.slug ? slugFromTitle(safeDecode(post.slug)) : "";
  return (
    [fromSource, slugFromTitle(en), slugFromTitle(file)]
      .map((s) => s.slice(0, PAGE_LIMITS.slugMax - 8).replace(/-+$/, ""))
      .find((s) => s !== "" && !/^\d+$/.test(s)) ?? null
  );
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A free address for a new page, by the pages' own rules (pageSlugRefusal: not the site's, not
 * another page's, not a redirect's): the source's, else `-2`… `-9`, else a random tail. A page
 * that does not get the address it had is noted with why.
 */
async function freePageSlug(
  trx: Transaction<Database>,
  post: ImportedPost,
  lines: ImportReportLine[],
): Promise<string> {
  const base = wantedSlug(post) ?? `page-${newId().slice(0, 8)}`;
  const first = await pageSlugRefusal(trx, base, null);
  if (!first) return base;
  let slug = `${base}-${newId().slice(0, 6)}`;
  for (const candidate of Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`)) {
    if (!(await pageSlugRefusal(trx, candidate, null))) {
      slug = candidate;
      break;
    }
  }
  const reason = { slugReserved: "pageSlugReserved", slugTaken: "pageSlugTaken", slugRedirected: "pageSlugRedirected" }[
    first
  ];
  lines.push({ item: post.label, outcome: "note", reason, detail: `/${base} → /${slug}` });
  return slug;
}

/** Writes one prepared page inside the chunk's transaction: created, updated, or skipped or failed with a reason. */
export async function writePage(
  trx: Transaction<Database>,
  job: ImportJob,
  p: Prepared,
  now: string,
): Promise<WrittenPage> {
  const { post } = p;
  const at = new Date(now);
  if (p.translations.every((t) => !t.title.trim())) return { outcome: "failed", reason: "noContent" };
  const mapped = await mappingOf(trx, job.kind, post.sourceId, "page");
  const existing = mapped ? await getPage(trx, mapped.targetId) : undefined;
  if (mapped && existing) {
    if (mapped.hash === p.hash) return { outcome: "skipped", reason: "unchanged" };
    if (existing.version !== Number(mapped.targetVersion)) return { outcome: "skipped", reason: "editedSinceImport" };
    const fields = pageFields(p, existing.slug, p.lines);
    const result = await updatePage(trx, existing.id, fields, job.authorId, {
      version: existing.version,
      coalesce: false,
      now: at,
    });
    if (!result.ok) return { outcome: "skipped", reason: "editedSinceImport" };
    await rememberTarget(trx, {
      source: job.kind,
      entity: "page",
      sourceId: post.sourceId,
      targetId: existing.id,
      hash: p.hash,
      targetVersion: existing.version + 1,
      now,
    });
    return { outcome: "updated", pageId: existing.id, slug: existing.slug };
  }
  const slug = await freePageSlug(trx, post, p.lines);
  const created = await createPage(trx, pageFields(p, slug, p.lines), job.authorId, at);
  // The address was just found free in this transaction: a refusal here is a bug, not the source's.
  if (!created.ok) throw new Error(`the page address /${slug} was refused: ${created.error}`);
  await rememberTarget(trx, {
    source: job.kind,
    entity: "page",
    sourceId: post.sourceId,
    targetId: created.id,
    hash: p.hash,
    targetVersion: 1,
    now,
  });
  return { outcome: "imported", pageId: created.id, slug };
}
