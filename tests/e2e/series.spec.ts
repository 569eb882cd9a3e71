import AxeBuilder from "@axe-core/playwright";
import type { EditorInput } from "../../app/lib/schemas/post.ts";
import { createEditorPost } from "../../app/server/posts/post-editor.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// Series (issue 23), one short journey: parts 1 and 3 are set up in the database, the
// writer adds part 2 in the editor, and a reader sees "Part 2 of 3" with links to the
// other parts and the series page, in English and Chinese.

const writers: string[] = [];

test.afterAll(async ({ serverDb }) => {
  if (writers.length === 0) return;
  const authors = serverDb.db.selectFrom("users").select("id").where("email", "in", writers);
  const series = serverDb.db.selectFrom("posts").select("seriesId").where("authorId", "in", authors);
  await serverDb.db.deleteFrom("series").where("id", "in", series).execute();
  await serverDb.db.deleteFrom("posts").where("authorId", "in", authors).execute();
});

function part(title: string, publishAt: string, series: Partial<EditorInput>): EditorInput {
  return {
    slug: "",
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "published",
    publishAt,
    translations: [
      { locale: "en", title, summary: "", bodyMarkdown: "Words.", seoTitle: null, seoDescription: null },
      {
        locale: "zh",
        title: `${title}（中文）`,
        summary: "",
        bodyMarkdown: "文字",
        seoTitle: null,
        seoDescription: null,
      },
    ],
    ...series,
  };
}

test("a series of three posts: part 2 written in the editor, read in both languages", async ({ page, serverDb }) => {
  const email = await signedInAdmin(page, serverDb.db, "series");
  writers.push(email);
  const author = await serverDb.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  const name = `Trail ${Date.now()}`;
  const first = await createEditorPost(
    serverDb.db,
    author.id,
    part("First steps", "2026-01-01T08:00:00.000Z", { newSeries: { nameEn: name, nameZh: "步道" } }),
  );
  if (!first.ok) throw new Error("could not create part 1");
  const { seriesId } = await serverDb.db
    .selectFrom("posts")
    .select("seriesId")
    .where("id", "=", first.id)
    .executeTakeFirstOrThrow();
  const third = await createEditorPost(
    serverDb.db,
    author.id,
    part("Last steps", "2026-01-03T08:00:00.000Z", { seriesId, seriesPosition: 3 }),
  );
  if (!third.ok) throw new Error("could not create part 3");

  // Part 2 in the editor: the series from the menu, part number 2.
  await page.goto("/en/posts/createPost");
  const english = page.getByRole("tabpanel", { name: "English" });
  await english.getByLabel("Title", { exact: true }).fill("Middle steps");
  await page.locator("[data-editor-bar]").getByRole("button", { name: "Settings" }).click();
  await page.getByLabel("Series", { exact: true }).selectOption({ label: name });
  await page.getByLabel("Part number").fill("2");
  await page.getByRole("button", { name: "Publish…" }).click();
  await page.getByRole("dialog", { name: "Publish this post?" }).getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("The post was created.")).toBeVisible();
  const second = page.url().split("/").pop() ?? "";

  await page.goto(`/en/posts/detail/${second}`);
  const box = page.getByRole("navigation", { name: `Series ${name}` });
  await expect(box).toContainText("Part 2 of 3");
  await expect(box.locator('[aria-current="page"]')).toHaveText("Middle steps");
  await expect(box.getByRole("link", { name: "First steps" })).toHaveAttribute("href", `/en/posts/detail/${first.id}`);
  await expect(box.getByRole("link", { name: "Last steps" })).toHaveAttribute("href", `/en/posts/detail/${third.id}`);

  await box.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/en\/series\/trail-\d+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByRole("main").getByRole("listitem")).toHaveText(["First steps", "Middle steps", "Last steps"]);

  await page.goto(`/zh/posts/detail/${first.id}`);
  const zhBox = page.getByRole("navigation", { name: "系列 步道" });
  await expect(zhBox).toContainText("第 1 篇，共 3 篇");
  await expect(zhBox.getByRole("link", { name: "步道" })).toBeVisible();
  // The box's markup (nav, list, aria-current) passes axe.
  const results = await new AxeBuilder({ page }).include("nav[aria-labelledby=series-title]").analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
});
