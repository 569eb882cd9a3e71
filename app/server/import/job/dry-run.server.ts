import type { DB } from "../../db/db.server.ts";
import { type CheckedPost, checkPost } from "../check.server.ts";
import { emptyCounts, type ImportCounts, type ImportedPost, type ImportReportLine } from "../core.server.ts";
import type { ImageResolver } from "../images.server.ts";
import { earlySkips, itemEntity } from "../import-sources.server.ts";
import type { SourceRead } from "../markdown-folder.server.ts";
import { inSlices } from "../slices.server.ts";

// The dry run (docs/decisions/020-importers.md): what an import would do with each post, told
// from the same lookups the job makes (earlySkips, the source-id mappings, the images), writing
// nothing. The admin page keeps it with a staged import; the CLI prints it (`--dry-run`).

/**
 * A dry run: what an import of these posts would do, writing nothing. Images are looked up but
 * not stored; bodies are not rendered (a body too long or too deep is still reported).
 */
export async function planPostImport(
  db: DB,
  input: { kind: string; read: SourceRead; images: ImageResolver; fetchRemote?: boolean },
): Promise<{ counts: ImportCounts; report: ImportReportLine[] }> {
  const report: ImportReportLine[] = [];
  const plan = startPostImportPlan(db, {
    kind: input.kind,
    images: input.images,
    onLine: (l) => report.push(l),
    fetchRemote: input.fetchRemote === true,
  });
  plan.problems(input.read.problems);
  for (const post of input.read.posts) await plan.add(post);
  return { counts: plan.counts, report };
}

/**
 * A dry run fed one post at a time (a reader that streams): the counts grow as posts are added
 * and each report line goes to `onLine` at once, so nothing but the counts is held.
 */
export function startPostImportPlan(
  db: DB,
  input: { kind: string; images: ImageResolver; onLine: (line: ImportReportLine) => void; fetchRemote?: boolean },
): {
  counts: ImportCounts;
  problems: (lines: readonly ImportReportLine[]) => void;
  add: (post: ImportedPost) => Promise<void>;
  /** Posts already checked where they were read (checkPost, on the upload check's worker), in order. */
  addChecked: (posts: readonly CheckedPost[]) => Promise<void>;
} {
  const counts = emptyCounts();
  const { onLine } = input;
  /** One post, with what the batch's lookups found: its early skip, and whether it was imported before. */
  const addOne = async (post: CheckedPost, skip: string | null, mapped: boolean) => {
    counts.total += 1;
    for (const note of post.notes) onLine(note);
    if (skip) {
      counts.skipped += 1;
      onLine({ item: post.label, outcome: "skipped", reason: skip });
      return;
    }
    if (post.failure) {
      counts.failed += 1;
      onLine(post.failure);
      return;
    }
    for (const ref of post.refs) {
      const found = await input.images.resolve(ref, post.assetDirs);
      if (found.kind === "missing") {
        counts.imagesMissing += 1;
        onLine({ item: post.label, outcome: "imageMissing", reason: found.reason, detail: found.rel });
      } else if (found.kind === "remote" && /^https?:\/\//i.test(ref))
        // Not fetched in a dry run: said what the import will do with it.
        onLine({
          item: post.label,
          outcome: "note",
          reason: input.fetchRemote ? "imageRemoteFetch" : "imageRemoteKept",
          detail: ref.slice(0, 300),
        });
    }
    const outcome = mapped ? "updated" : "imported";
    // A page is counted as a page, whether new or updated; imported and updated count posts.
    if (post.kind === "page") counts.pages += 1;
    else counts[outcome] += 1;
    // An upper bound: comments written by an earlier run are not written again.
    counts.commentsAdded += post.comments;
    onLine({ item: post.label, outcome });
  };
  // Three queries per hundred posts rather than three per post: the thread that serves requests runs them.
  const addChecked = async (posts: readonly CheckedPost[]) => {
    const skips = await earlySkips(
      db,
      input.kind,
      posts.map((p) => ({ post: p, hash: p.hash })),
    );
    const mapped = new Set<string>();
    for (const entity of ["post", "page"] as const) {
      const ids = [...new Set(posts.filter((p) => itemEntity(p) === entity).map((p) => p.sourceId))];
      await inSlices(ids, async (slice) => {
        const rows = await db
          .selectFrom("importSources")
          .select("sourceId")
          .where("source", "=", input.kind)
          .where("entity", "=", entity)
          .where("sourceId", "in", slice)
          .execute();
        for (const r of rows) mapped.add(`${entity}:${r.sourceId}`);
      });
    }
    for (const [i, post] of posts.entries())
      await addOne(post, skips[i] ?? null, mapped.has(`${itemEntity(post)}:${post.sourceId}`));
  };
  return {
    counts,
    problems(lines) {
      for (const line of lines) {
        if (line.outcome === "failed") counts.failed += 1;
        onLine(line);
      }
    },
    add: async (post) => addChecked([await checkPost(post)]),
    addChecked,
  };
}
