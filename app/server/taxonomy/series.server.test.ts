import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asAuthor, editorInput } from "../../../tests/setup/editing-user.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import type { EditorInput } from "../../lib/schemas/post.ts";
import { sitemapTerms } from "../feeds/discovery.server.ts";
import { restoreRevision, savePendingEdit } from "../posts/pending-edits.server.ts";
import { createEditorPost, loadPostForEdit, type SaveResult, updateEditorPost } from "../posts/post-editor.server.ts";
import { previewPost } from "../posts/preview-links.server.ts";
import { getRevision, inputOfContent, listRevisions, pendingRevision } from "../posts/revisions.server.ts";
import {
  deleteSeries,
  findPublicSeries,
  getSeries,
  listSeriesForAdmin,
  publishedParts,
  saveSeries,
  seriesBoxForPost,
} from "./series.server.ts";

let database: TestDatabase;
const AUTHOR = "series-author";

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.cleanup();
});

const at = (day: number) => new Date(Date.UTC(2026, 10, day, 8)).toISOString();

function input(title: string, overrides: Partial<EditorInput> = {}): EditorInput {
  const zh = {
    locale: "zh" as const,
    title: `${title}（中）`,
    summary: "",
    bodyMarkdown: "文字",
    seoTitle: null,
    seoDescription: null,
  };
  const base = editorInput({ title });
  return { ...base, status: "published", translations: [...base.translations, zh], ...overrides };
}

function saved(result: SaveResult): { id: string; version: number } {
  if (!result.ok) throw new Error(`expected a saved post, got ${JSON.stringify(result)}`);
  return { id: result.id, version: result.version };
}

async function seriesOf(postId: string) {
  const post = await loadPostForEdit(database.db, postId, asAuthor(AUTHOR));
  return { seriesId: post?.seriesId ?? null, seriesPosition: post?.seriesPosition ?? null };
}

describe("series of posts", () => {
  it("makes a series from the editor's names, numbers parts in order, and counts only published ones", async () => {
    const db = database.db;
    const one = saved(
      await createEditorPost(
        db,
        AUTHOR,
        input("Part one", { publishAt: at(1), newSeries: { nameEn: "", nameZh: "入门指南" } }),
      ),
    );
    const { seriesId } = await seriesOf(one.id);
    expect(seriesId).not.toBeNull();
    const series = await getSeries(db, seriesId ?? "");
    // One name serves both languages; the slug is its pinyin, as for categories.
    expect(series).toMatchObject({ nameEn: "入门指南", nameZh: "入门指南", slug: "ru-men-zhi-nan", postCount: 1 });

    const two = saved(
      await createEditorPost(db, AUTHOR, input("Part two", { status: "draft", publishAt: at(2), seriesId })),
    );
    const three = saved(await createEditorPost(db, AUTHOR, input("Part three", { publishAt: at(3), seriesId })));
    expect((await seriesOf(one.id)).seriesPosition).toBe(1);
    expect((await seriesOf(two.id)).seriesPosition).toBe(2);
    expect((await seriesOf(three.id)).seriesPosition).toBe(3);

    // Readers: the draft is neither listed nor counted, so part three is "2 of 2".
    const parts = await publishedParts(db, seriesId ?? "", "en");
    expect(parts.map((p) => p.title)).toEqual(["Part one", "Part three"]);
    const box = await seriesBoxForPost(db, { id: three.id, seriesId }, "zh");
    expect(box).toMatchObject({ slug: "ru-men-zhi-nan", name: "入门指南", current: 2 });
    expect(box?.parts.map((p) => p.title)).toEqual(["Part one（中）", "Part three（中）"]);
    // A draft part seen by its author is in no place among the published ones.
    expect((await seriesBoxForPost(db, { id: two.id, seriesId }, "en"))?.current).toBe(0);

    // Publishing part two puts it in its place: "2 of 3".
    saved(
      await updateEditorPost(
        db,
        asAuthor(AUTHOR),
        two.id,
        input("Part two", { version: two.version, publishAt: at(2), seriesId }),
      ),
    );
    const after = await seriesBoxForPost(db, { id: two.id, seriesId }, "en");
    expect(after).toMatchObject({ current: 2 });
    expect(after?.parts.map((p) => p.title)).toEqual(["Part one", "Part two", "Part three"]);

    const page = await findPublicSeries(db, "ru-men-zhi-nan", "en");
    expect(page?.parts).toHaveLength(3);
    expect(await findPublicSeries(db, "no-such-series", "en")).toBeUndefined();
    expect((await sitemapTerms(db)).series.map((s) => s.slug)).toContain("ru-men-zhi-nan");
  });

  it("orders by the part number typed, then by publish date", async () => {
    const db = database.db;
    const made = await saveSeries(db, null, {
      slug: "ordering",
      nameEn: "Ordering",
      nameZh: "顺序",
      descriptionEn: "In order.",
      descriptionZh: "",
    });
    if (!made.ok) throw new Error("series not saved");
    const seriesId = made.id;
    const late = saved(
      await createEditorPost(db, AUTHOR, input("Late", { publishAt: at(9), seriesId, seriesPosition: 1 })),
    );
    const early = saved(
      await createEditorPost(db, AUTHOR, input("Early", { publishAt: at(4), seriesId, seriesPosition: 1 })),
    );
    const first = saved(
      await createEditorPost(db, AUTHOR, input("Zero", { publishAt: at(10), seriesId, seriesPosition: 5 })),
    );
    expect((await publishedParts(db, seriesId, "en")).map((p) => p.id)).toEqual([early.id, late.id, first.id]);
    // Moving the last one to part 1 with an explicit number; a save without a number keeps it.
    saved(
      await updateEditorPost(
        db,
        asAuthor(AUTHOR),
        first.id,
        input("Zero", { version: 1, publishAt: at(10), seriesId, seriesPosition: 1 }),
      ),
    );
    saved(
      await updateEditorPost(
        db,
        asAuthor(AUTHOR),
        first.id,
        input("Zero", { version: 2, publishAt: at(10), seriesId }),
      ),
    );
    expect((await seriesOf(first.id)).seriesPosition).toBe(1);
    expect((await publishedParts(db, seriesId, "en")).map((p) => p.title)).toEqual(["Early", "Late", "Zero"]);
    // The Chinese page falls back to the English description.
    expect((await findPublicSeries(db, "ordering", "zh"))?.description).toBe("In order.");
  });

  it("refuses an unknown series with a field error and writes nothing", async () => {
    const result = await createEditorPost(database.db, AUTHOR, input("Lost", { seriesId: "nosuchseries00000000" }));
    expect(result).toEqual({ ok: false, reason: "invalid", fieldErrors: { seriesId: "editor:errors.seriesUnknown" } });
  });

  it("keeps a live post's series change pending until Update, and records it in revisions", async () => {
    const db = database.db;
    const made = await saveSeries(db, null, {
      slug: "pending-series",
      nameEn: "Pending",
      nameZh: "待定",
      descriptionEn: "",
      descriptionZh: "",
    });
    if (!made.ok) throw new Error("series not saved");
    const post = saved(await createEditorPost(db, AUTHOR, input("Live one", { publishAt: at(5) })));
    const pending = await savePendingEdit(
      db,
      asAuthor(AUTHOR),
      post.id,
      input("Live one", { version: post.version, seriesId: made.id }),
    );
    expect(pending.ok).toBe(true);
    // Readers still see the post outside the series.
    expect((await seriesOf(post.id)).seriesId).toBeNull();
    expect(await findPublicSeries(db, "pending-series", "en")).toBeUndefined();
    const revision = await pendingRevision(db, post.id);
    expect(revision?.content).toMatchObject({ seriesId: made.id, seriesPosition: 1 });
    // A private preview shows the post as it will be: in the series.
    expect((await previewPost(db, post.id, "en"))?.seriesId).toBe(made.id);

    // Update: the pending revision's series goes live.
    const current = await loadPostForEdit(db, post.id, asAuthor(AUTHOR));
    saved(
      await updateEditorPost(
        db,
        asAuthor(AUTHOR),
        post.id,
        inputOfContent(revision?.content ?? ({} as never), current?.version ?? 0),
      ),
    );
    expect(await seriesOf(post.id)).toEqual({ seriesId: made.id, seriesPosition: 1 });
    expect((await findPublicSeries(db, "pending-series", "en"))?.parts.map((p) => p.id)).toEqual([post.id]);
  });

  it("deletes a series: its posts stay, out of it; restoring an old revision finds no series", async () => {
    const db = database.db;
    const made = await saveSeries(db, null, {
      slug: "doomed",
      nameEn: "Doomed",
      nameZh: "注定",
      descriptionEn: "",
      descriptionZh: "",
    });
    if (!made.ok) throw new Error("series not saved");
    const post = saved(
      await createEditorPost(db, AUTHOR, input("Member", { status: "draft", publishAt: at(6), seriesId: made.id })),
    );
    const [inSeries] = await listRevisions(db, post.id);
    expect((await listSeriesForAdmin(db, { q: "doom", page: 1, pageSize: 10 })).items).toMatchObject([
      { slug: "doomed", postCount: 1 },
    ]);

    await db.transaction().execute((trx) => deleteSeries(trx, made.id));
    expect(await getSeries(db, made.id)).toBeUndefined();
    expect(await seriesOf(post.id)).toEqual({ seriesId: null, seriesPosition: null });
    expect(await loadPostForEdit(db, post.id, asAuthor(AUTHOR))).not.toBeNull();

    // The revision still names the series; restoring it brings the post back without one.
    expect((await getRevision(db, post.id, inSeries?.id ?? ""))?.content.seriesId).toBe(made.id);
    const restored = await restoreRevision(db, asAuthor(AUTHOR), post.id, inSeries?.id ?? "");
    expect(restored.ok).toBe(true);
    expect(await seriesOf(post.id)).toEqual({ seriesId: null, seriesPosition: null });
    expect(await findPublicSeries(db, "doomed", "en")).toBeUndefined();
  });
});
