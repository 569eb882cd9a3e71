import AxeBuilder from "@axe-core/playwright";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe.configure({ mode: "serial" });

const SLUG_PREFIX = `admin-terms-${Date.now()}`;

test.afterAll(async ({ serverDb }) => {
  // Other files share this database and count its posts (the home page's empty state, pages).
  await serverDb.db.deleteFrom("posts").where("slug", "like", `${SLUG_PREFIX}-%`).execute();
});

test("an admin creates, edits and deletes a category, moving its posts", async ({ page, serverDb }) => {
  test.slow();
  await signedInAdmin(page, serverDb.db, "terms-admin");
  await page.goto("/admin/categories");
  await page.getByRole("link", { name: "New category" }).click();

  // The shared schema's field errors.
  await page.getByLabel("Slug", { exact: true }).fill("Not OK!");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("A name is required.").first()).toBeVisible();
  await expect(page.getByText("Use lower-case letters, digits and single hyphens (up to 80).")).toBeVisible();

  await page.getByLabel("Name (English)").fill("Gardening");
  await page.getByLabel("Name (中文)").fill("园艺");
  await page.getByLabel("Slug", { exact: true }).fill("gardening");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/admin\/categories$/);
  await expect(page.getByRole("row", { name: /Gardening/ })).toBeVisible();

  // A second category with the same slug is refused with a field error.
  await page.getByRole("link", { name: "New category" }).click();
  await page.getByLabel("Name (English)").fill("Garden 2");
  await page.getByLabel("Name (中文)").fill("园艺二");
  await page.getByLabel("Slug", { exact: true }).fill("gardening");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Another one already uses this slug.")).toBeVisible();
  await page.getByLabel("Slug", { exact: true }).fill("orchards");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("row", { name: /Garden 2/ })).toBeVisible();

  const gardening = await serverDb.db
    .selectFrom("categories")
    .select("id")
    .where("slug", "=", "gardening")
    .executeTakeFirstOrThrow();
  const orchards = await serverDb.db
    .selectFrom("categories")
    .select("id")
    .where("slug", "=", "orchards")
    .executeTakeFirstOrThrow();
  const postId = await createPost(serverDb.db, {
    slug: `${SLUG_PREFIX}-tomatoes`,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-01T00:00:00.000Z",
    categoryId: gardening.id,
    translations: [
      { locale: "en", title: "Growing tomatoes" },
      { locale: "zh", title: "种番茄" },
    ],
  });

  // Edit the name; the public category page follows in both languages.
  await page.getByRole("link", { name: "Edit “Gardening”" }).click();
  await page.getByLabel("Name (English)").fill("Garden life");
  await page.getByRole("button", { name: "Save" }).click();
  // Saved (back on the list) before leaving: a navigation now would cancel the save.
  await expect(page).toHaveURL(/\/admin\/categories$/);
  await expect(page.getByRole("row", { name: /Garden life/ })).toBeVisible();
  await page.goto("/en/categories/gardening");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Garden life");
  await expect(page.getByRole("link", { name: "Growing tomatoes" })).toBeVisible();
  await page.goto("/zh/categories/gardening");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("园艺");

  // Delete asks where the posts go.
  // The admin has one address; /en/admin… goes there in English (the /zh page above made Chinese the remembered language).
  await page.goto("/en/admin/categories?sort=posts");
  await page.getByRole("link", { name: "Delete “Garden life”" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Delete the category “Garden life”? It has 1 posts.");
  await confirm.getByLabel("Move its posts to").selectOption({ label: "Garden 2" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("row", { name: /Garden life/ })).toHaveCount(0);
  const moved = await serverDb.db
    .selectFrom("posts")
    .select("categoryId")
    .where("id", "=", postId)
    .executeTakeFirstOrThrow();
  expect(moved.categoryId).toBe(orchards.id);
  expect((await page.goto("/categories/gardening"))?.status()).toBe(404);
});

test("a tag's slug follows its name, in pinyin for Chinese, until the admin edits it", async ({ page, serverDb }) => {
  await signedInAdmin(page, serverDb.db, "slug-admin");
  await page.goto("/admin/tags/new");
  // Empty names: the names are required; the empty slug is not an error (the server would make one).
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("A name is required.").first()).toBeVisible();
  await expect(page.getByText("Use lower-case letters, digits and single hyphens (up to 80).")).toHaveCount(0);

  await page.getByLabel("Name (English)").fill("绿茶");
  await page.getByLabel("Name (中文)").fill("绿茶");
  await expect(page.getByLabel("Slug", { exact: true })).toHaveValue("lv-cha");
  await page.getByLabel("Name (English)").fill("Green tea");
  await expect(page.getByLabel("Slug", { exact: true })).toHaveValue("green-tea");
  await page.getByLabel("Slug", { exact: true }).fill("tea");
  await page.getByLabel("Name (English)").fill("Green teas");
  await expect(page.getByLabel("Slug", { exact: true })).toHaveValue("tea");
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("row", { name: /Green teas/ })).toBeVisible();
});

test.describe("in a browser in New York", () => {
  test.use({ timezoneId: "America/New_York" });

  test("the audit log shows its times in the browser's zone, named", async ({ page, serverDb }) => {
    await signedInAdmin(page, serverDb.db, "zone-admin");
    await page.goto("/admin");
    // The previous test's tag.create entry: rendered in UTC, then rewritten in the browser's zone.
    const when = page.getByRole("row", { name: /tag\.create · Green teas/ }).locator("time");
    await expect(when).toHaveText(/\d{1,2}:\d{2}\s[AP]M E[SD]T$/);
    await expect(when).toHaveAttribute("title", /UTC$/);
  });
});

test("an admin merges one tag into another", async ({ page, serverDb }) => {
  await signedInAdmin(page, serverDb.db, "tags-admin");
  await page.goto("/admin/tags/new");
  const tags: Array<[string, string, string]> = [
    ["Houseplants", "室内植物", "houseplants"],
    ["Indoor plants", "盆栽", "indoor-plants"],
  ];
  for (const [en, zh, slug] of tags) {
    await page.goto("/admin/tags/new");
    await page.getByLabel("Name (English)").fill(en);
    await page.getByLabel("Name (中文)").fill(zh);
    await page.getByLabel("Slug", { exact: true }).fill(slug);
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByRole("row", { name: new RegExp(en) })).toBeVisible();
  }
  const tag = await serverDb.db
    .selectFrom("tags")
    .select("id")
    .where("slug", "=", "houseplants")
    .executeTakeFirstOrThrow();
  await createPost(serverDb.db, {
    slug: `${SLUG_PREFIX}-ferns`,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-02T00:00:00.000Z",
    tagIds: [tag.id],
    translations: [{ locale: "en", title: "Ferns in the bathroom" }],
  });

  await page.getByRole("link", { name: "Edit “Houseplants”" }).click();
  await page.getByLabel("Merge “Houseplants” into").selectOption({ label: "Indoor plants (indoor-plants)" });
  await page.getByRole("button", { name: "Merge" }).click();
  await expect(page.getByLabel("Name (English)")).toHaveValue("Indoor plants");
  await page.goto("/en/tags/indoor-plants");
  await expect(page.getByRole("link", { name: "Ferns in the bathroom" })).toBeVisible();
  expect((await page.goto("/tags/houseplants"))?.status()).toBe(404);

  for (const path of ["/admin/tags", "/admin/categories/new"]) {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }
});
