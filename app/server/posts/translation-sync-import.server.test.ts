import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImportBed, type ImportBed } from "../../../tests/setup/import-bed.ts";
import { testDialect } from "../../../tests/setup/test-db.ts";
import { MARKDOWN_SOURCE, readMarkdownFolder } from "../import/markdown-folder.server.ts";

// Imports start paired language versions up to date (issue 47, decision 034): a new post, and
// a post the import updates (both languages written again from the source).

let bed: ImportBed;

const page = (title: string, body: string) =>
  `---\ntitle: ${title}\ndate: 2021-03-04 09:30:00\nslug: tea\n---\n\n${body}\n`;

const runImport = async () =>
  bed.runImport(
    { kind: MARKDOWN_SOURCE, label: bed.root, read: await readMarkdownFolder(bed.root), resume: true },
    { maxChunks: 20 },
  );

const marks = async () =>
  (
    await bed.database.db.selectFrom("postTranslations").select(["locale", "outdatedSince"]).orderBy("locale").execute()
  ).map((t) => [t.locale, t.outdatedSince === null ? "up to date" : "out of date"]);

beforeAll(async () => {
  bed = await createImportBed("md-sync", { email: "importer@example.test" });
  await mkdir(path.join(bed.root, "content/posts"), { recursive: true });
  await writeFile(path.join(bed.root, "content/posts/tea.en.md"), page("Tea", "Green tea is mild."));
  await writeFile(path.join(bed.root, "content/posts/tea.zh.md"), page("茶", "绿茶很温和。"));
});

afterAll(async () => {
  await bed?.cleanup();
});

describe(`imports and translation marks (${testDialect()})`, () => {
  it("imports both languages up to date, and an updated post's pair in line again", async () => {
    await runImport();
    expect(await marks()).toEqual([
      ["en", "up to date"],
      ["zh", "up to date"],
    ]);
    // Marked out of date on the site (as an English edit would), then the source changes.
    await bed.database.db
      .updateTable("postTranslations")
      .set({ outdatedSince: "2021-03-05T00:00:00.000Z", syncedSource: '{"title":"","summary":"","bodyMarkdown":""}' })
      .where("locale", "=", "zh")
      .execute();
    await writeFile(path.join(bed.root, "content/posts/tea.en.md"), page("Tea", "Green tea is mild and sweet."));
    await runImport();
    const bodies = await bed.database.db.selectFrom("postTranslations").select("bodyMarkdown").execute();
    expect(bodies.map((b) => b.bodyMarkdown.trim())).toContain("Green tea is mild and sweet.");
    expect(await marks()).toEqual([
      ["en", "up to date"],
      ["zh", "up to date"],
    ]);
  });
});
