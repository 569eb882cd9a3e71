import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asAdmin, asAuthor, editorInput } from "../../../tests/setup/editing-user.ts";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import type { EditorInput, EditorTranslation } from "../../lib/schemas/post.ts";
import { newId } from "../platform/ids.server.ts";
import { listPostsForAdmin } from "./admin-posts.server.ts";
import { savePendingEdit } from "./pending-edits.server.ts";
import { findPostDetail } from "./post-detail.server.ts";
import { createEditorPost, updateEditorPost } from "./post-editor.server.ts";
import {
  markTranslationInLine,
  markTranslationsInLine,
  outdatedTranslations,
  readTranslationTexts,
} from "./translation-sync.server.ts";

// The marking rules of translations that know when they are out of date (issue 47,
// docs/decisions/034-translation-sync.md), through the editor's own save.

let database: TestDatabase;
let owner = "";
let stranger = "";

beforeAll(async () => {
  database = await createTestDatabase();
  owner = await insertUser(database.db, { email: "owner@example.test", name: "Owner" });
  stranger = await insertUser(database.db, { email: "stranger@example.test", name: "Stranger" });
});

afterAll(async () => {
  await database.cleanup();
});

interface Text {
  title: string;
  summary?: string;
  body: string;
  seoTitle?: string | null;
}

const EN: Text = {
  title: "Tea",
  summary: "On tea.",
  body: "# Tea\n\nGreen tea is mild.\n\n## Brewing\n\nUse cool water.",
};
const ZH: Text = { title: "茶", summary: "谈茶。", body: "# 茶\n\n绿茶很温和。\n\n## 冲泡\n\n用凉一点的水。" };

function translation(locale: "en" | "zh", t: Text): EditorTranslation {
  return {
    locale,
    title: t.title,
    summary: t.summary ?? "",
    bodyMarkdown: t.body,
    seoTitle: t.seoTitle ?? null,
    seoDescription: null,
  };
}

function input(en: Text | null, zh: Text | null, extra: Partial<EditorInput> = {}): EditorInput {
  const translations = [...(en ? [translation("en", en)] : []), ...(zh ? [translation("zh", zh)] : [])];
  return editorInput({}, { translations, ...extra });
}

/** A post being edited: each save goes through the editor's update, as the form does. */
async function post(en: Text | null, zh: Text | null, status: "draft" | "published" = "draft") {
  const created = await createEditorPost(
    database.db,
    owner,
    input(en, zh, { slug: `p-${newId().slice(0, 10).toLowerCase()}`, status }),
  );
  if (!created.ok) throw new Error(JSON.stringify(created));
  let version = created.version;
  const id = created.id;
  return {
    id,
    async save(nextEn: Text | null, nextZh: Text | null, extra: Partial<EditorInput> = {}) {
      const result = await updateEditorPost(
        database.db,
        asAdmin(owner),
        id,
        input(nextEn, nextZh, { version, status, ...extra }),
      );
      if (!result.ok) throw new Error(JSON.stringify(result));
      version = result.version;
    },
    async marks() {
      const texts = await readTranslationTexts(database.db, id);
      return Object.fromEntries(
        [...texts].map(([locale, t]) => [
          locale,
          t.outdatedSince === null ? "up to date" : `out of date, was ${JSON.parse(t.syncedSource ?? "{}").title}`,
        ]),
      );
    },
    async since(locale: "en" | "zh") {
      return (await readTranslationTexts(database.db, id)).get(locale)?.outdatedSince ?? null;
    },
  };
}

describe(`translation marks (${testDialect()})`, () => {
  it("starts a post written in both languages up to date, and marks the other version after an edit of one", async () => {
    const p = await post(EN, ZH);
    expect(await p.marks()).toEqual({ en: "up to date", zh: "up to date" });

    await p.save({ ...EN, body: `${EN.body}\n\nAdd honey.` }, ZH);
    // The Chinese version keeps the English one it was in line with.
    expect(await p.marks()).toEqual({ en: "up to date", zh: "out of date, was Tea" });
    const since = await p.since("zh");
    expect(since).not.toBeNull();

    // More English edits: still out of date, since the first change, against the same English text.
    await p.save({ ...EN, title: "Tea, again", body: `${EN.body}\n\nAdd honey.` }, ZH);
    expect(await p.marks()).toEqual({ en: "up to date", zh: "out of date, was Tea" });
    expect(await p.since("zh")).toBe(since);

    // Saving the Chinese version brings it in line, and leaves the English one up to date.
    await p.save(
      { ...EN, title: "Tea, again", body: `${EN.body}\n\nAdd honey.` },
      { ...ZH, body: `${ZH.body}\n\n加蜂蜜。` },
    );
    expect(await p.marks()).toEqual({ en: "up to date", zh: "up to date" });
  });

  it("counts title, summary and body as the content, not the SEO fields, the settings or line endings", async () => {
    const p = await post(EN, ZH);
    // A browser submits the untouched Chinese body with CRLF line endings.
    await p.save(
      { ...EN, seoTitle: "Tea | Blog" },
      { ...ZH, body: ZH.body.replaceAll("\n", "\r\n") },
      { tags: ["drinks"] },
    );
    expect(await p.marks()).toEqual({ en: "up to date", zh: "up to date" });
    await p.save({ ...EN, body: `${EN.body}\n\nMore.` }, { ...ZH, body: ZH.body.replaceAll("\n", "\r\n") });
    expect(await p.marks()).toEqual({ en: "up to date", zh: "out of date, was Tea" });
    await p.save(EN, ZH);
    expect(await p.marks()).toEqual({ en: "up to date", zh: "up to date" });
    await p.save({ ...EN, summary: "All about tea." }, ZH);
    expect(await p.marks()).toEqual({ en: "up to date", zh: "out of date, was Tea" });
  });

  it("works the other way round: a Chinese edit marks the English version", async () => {
    const p = await post(EN, ZH);
    await p.save(EN, { ...ZH, title: "好茶" });
    expect(await p.marks()).toEqual({ en: "out of date, was 茶", zh: "up to date" });
  });

  it("takes both versions changed in one save as brought in line with each other", async () => {
    const p = await post(EN, ZH);
    await p.save({ ...EN, title: "Tea!" }, ZH);
    expect((await p.marks()).zh).toMatch(/^out of date/);
    await p.save({ ...EN, title: "Tea?" }, { ...ZH, title: "茶？" });
    expect(await p.marks()).toEqual({ en: "up to date", zh: "up to date" });
  });

  it("clears the mark when the source goes back to the text the translation follows", async () => {
    const p = await post(EN, ZH);
    await p.save({ ...EN, body: "Something else." }, ZH);
    expect((await p.marks()).zh).toMatch(/^out of date/);
    await p.save(EN, ZH);
    expect(await p.marks()).toEqual({ en: "up to date", zh: "up to date" });
  });

  it("never marks a post with one language, and starts a translation added later in line", async () => {
    const p = await post(EN, null);
    await p.save({ ...EN, body: "Changed." }, null);
    expect(await p.marks()).toEqual({ en: "up to date" });
    // A translation written now, from the English version as it stands.
    await p.save({ ...EN, body: "Changed." }, ZH);
    expect(await p.marks()).toEqual({ en: "up to date", zh: "up to date" });
    // Out of date, then the English version removed: nothing left to be in line with.
    await p.save({ ...EN, body: "Changed again." }, ZH);
    expect((await p.marks()).zh).toMatch(/^out of date/);
    await p.save(null, ZH);
    expect(await p.marks()).toEqual({ zh: "up to date" });
  });

  it("marks a live post when its changes are published (Update), not while they are pending", async () => {
    const p = await post(EN, ZH, "published");
    const version = Number(
      (await database.db.selectFrom("posts").select("version").where("id", "=", p.id).executeTakeFirstOrThrow())
        .version,
    );
    const pending = await savePendingEdit(
      database.db,
      asAdmin(owner),
      p.id,
      input({ ...EN, body: "Pending words." }, ZH, { version, status: "published" }),
    );
    expect(pending.ok).toBe(true);
    expect(await p.marks()).toEqual({ en: "up to date", zh: "up to date" });
    await p.save({ ...EN, body: "Pending words." }, ZH, { version: version + 1 });
    expect(await p.marks()).toEqual({ en: "up to date", zh: "out of date, was Tea" });
  });

  it("shows the list, the post page and the editor's diff the mark", async () => {
    const p = await post(EN, ZH, "published");
    await p.save({ ...EN, body: "# Tea\n\nGreen tea is mild and sweet.\n\n## Brewing\n\nUse cool water." }, ZH);

    const list = await listPostsForAdmin(database.db, { page: 1, pageSize: 100, locale: "en" });
    expect(list.items.find((i) => i.id === p.id)?.outdated).toEqual(["zh"]);
    expect((await findPostDetail(database.db, p.id, "zh"))?.translation.outdated).toBe(true);
    expect((await findPostDetail(database.db, p.id, "en"))?.translation.outdated).toBe(false);

    const [view, ...rest] = await outdatedTranslations(database.db, p.id);
    expect(rest).toEqual([]);
    expect(view).toMatchObject({ locale: "zh", source: "en" });
    expect(view?.title.changed).toBe(false);
    expect(view?.body.changed).toBe(true);
    // One paragraph changed, by word; the unchanged ones folded into counts.
    const blocks = view?.body.blocks ?? [];
    expect(blocks.map((b) => (b.kind === "same" ? b.count : "changed"))).toEqual([1, "changed", 2]);
    const changed = blocks[1]?.kind === "changed" ? blocks[1].parts : [];
    expect(
      changed
        .filter((part) => part.op !== "delete")
        .map((part) => part.text)
        .join(""),
    ).toBe("Green tea is mild and sweet.");
    expect(changed.filter((part) => part.op === "insert").map((part) => part.text.trim())).toEqual(["and sweet"]);
  });
});

describe(`Mark as up to date (${testDialect()})`, () => {
  it("clears the mark for whoever may edit the post, and records it", async () => {
    const p = await post(EN, ZH);
    await p.save({ ...EN, title: "Teas" }, ZH);
    expect(await markTranslationInLine(database.db, asAuthor(stranger), p.id, "zh")).toBe("notFound");
    expect((await p.marks()).zh).toMatch(/^out of date/);

    expect(await markTranslationInLine(database.db, asAdmin(stranger), p.id, "zh")).toBe("marked");
    expect(await p.marks()).toEqual({ en: "up to date", zh: "up to date" });
    expect(await markTranslationInLine(database.db, asAdmin(stranger), p.id, "zh")).toBe("unchanged");
    const entries = await database.db
      .selectFrom("auditLog")
      .select(["actorEmail", "action"])
      .where("entityId", "=", p.id)
      .where("action", "=", "post.translationInLine")
      .execute();
    expect(entries).toEqual([{ actorEmail: "stranger@example.test", action: "post.translationInLine" }]);

    // From there on, the English version as it stands is what the Chinese one follows.
    await p.save({ ...EN, title: "Tea" }, ZH);
    expect(await p.marks()).toEqual({ en: "up to date", zh: "out of date, was Teas" });
  });

  it("brings every version in line at once for an import", async () => {
    const p = await post(EN, ZH);
    await p.save(EN, { ...ZH, title: "新茶" });
    expect((await p.marks()).en).toMatch(/^out of date/);
    await markTranslationsInLine(database.db, p.id);
    expect(await p.marks()).toEqual({ en: "up to date", zh: "up to date" });
  });
});
