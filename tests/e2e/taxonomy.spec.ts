import AxeBuilder from "@axe-core/playwright";
import type { OpenDatabase } from "../../app/server/db/db.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { createCategory, ensureTags } from "../../app/server/taxonomy/taxonomy.server.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";

// Category and tag pages, the footer's popular categories, and the feeds and
// sitemap, on posts written straight into the server's database.

interface Seeded {
  spicyNoodles: string;
  plainRice: string;
}

let seeded: Promise<Seeded> | null = null;

function seed(database: OpenDatabase): Promise<Seeded> {
  seeded ??= (async () => {
    const { db } = database;
    // A worker restarted after a failure finds the posts already there.
    const existing = await db
      .selectFrom("posts")
      .select(["id", "slug"])
      .where("slug", "in", ["e2e-spicy-noodles", "e2e-plain-rice"])
      .execute();
    const idOf = (slug: string) => existing.find((p) => p.slug === slug)?.id;
    const [foundNoodles, foundRice] = [idOf("e2e-spicy-noodles"), idOf("e2e-plain-rice")];
    if (foundNoodles && foundRice) return { spicyNoodles: foundNoodles, plainRice: foundRice };
    const recipes = await createCategory(db, { slug: "e2e-recipes", nameEn: "Recipes", nameZh: "食谱" });
    const other = await createCategory(db, { slug: "e2e-gadgets", nameEn: "Gadgets", nameZh: "小玩意" });
    const [spicy = ""] = await ensureTags(db, ["E2E Spicy"]);
    await db.updateTable("tags").set({ nameZh: "麻辣" }).where("id", "=", spicy).execute();
    const post = (
      slug: string,
      day: number,
      categoryId: string,
      tagIds: string[],
      en: string,
      zh: string,
      extra = {},
    ) =>
      createPost(db, {
        slug,
        authorId: null,
        status: "published",
        publishedAt: `2026-10-${String(day).padStart(2, "0")}T08:00:00.000Z`,
        categoryId,
        tagIds,
        translations: [
          { locale: "en", title: en, summary: `${en}, briefly.`, bodyHtml: `<p>${en}</p>` },
          { locale: "zh", title: zh, summary: `${zh}简介。`, bodyHtml: `<p>${zh}</p>` },
        ],
        ...extra,
      });
    const spicyNoodles = await post("e2e-spicy-noodles", 3, recipes, [spicy], "Spicy noodles", "麻辣面", {
      coverImageUrl: "/social.jpg",
      coverAlt: "A bowl of noodles",
    });
    const plainRice = await post("e2e-plain-rice", 5, recipes, [], "Plain rice", "白米饭");
    await post("e2e-chili-gadget", 4, other, [spicy], "A chili grinder", "辣椒研磨器");
    await post("e2e-more-rice", 2, recipes, [], "More rice", "更多米饭");
    await createPost(db, {
      slug: "e2e-recipe-draft",
      authorId: null,
      status: "draft",
      publishedAt: null,
      categoryId: recipes,
      tagIds: [spicy],
      translations: [{ locale: "en", title: "Unpublished recipe" }],
    });
    return { spicyNoodles, plainRice };
  })();
  return seeded;
}

const listItems = (page: import("@playwright/test").Page) =>
  page.getByRole("listitem").filter({ has: page.getByRole("article") });

test("a category page lists its published posts in English and, under /zh/, in Chinese", async ({ page, serverDb }) => {
  await seed(serverDb);
  const response = await page.goto("/en/categories/e2e-recipes");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Recipes · Inkwell");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recipes");
  await expect(listItems(page).getByRole("heading")).toHaveText(["Plain rice", "Spicy noodles", "More rice"]);
  await expect(page.getByText("Unpublished recipe")).toHaveCount(0);
  await expect(page.getByText("A chili grinder")).toHaveCount(0);

  // The item shows its category, its tags and its cover (in a fixed box; the second
  // card is in the first screen, so its cover loads at once rather than lazily).
  const noodles = listItems(page).filter({ hasText: "Spicy noodles" });
  await expect(noodles.getByRole("link", { name: "Category Recipes" })).toHaveAttribute(
    "href",
    "/en/categories/e2e-recipes",
  );
  await expect(noodles.getByRole("list", { name: "Tags" }).getByRole("link")).toHaveText("#E2E Spicy");
  const cover = noodles.getByRole("img", { name: "A bowl of noodles" });
  await expect(cover).toHaveAttribute("loading", "eager");
  await expect(cover).toHaveAttribute("src", "/social.jpg");

  await page.goto("/zh/categories/e2e-recipes");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page).toHaveTitle("食谱 · 墨水博客");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("食谱");
  await expect(listItems(page).getByRole("heading")).toHaveText(["白米饭", "麻辣面", "更多米饭"]);
  await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute(
    "href",
    /\/en\/categories\/e2e-recipes$/,
  );
});

test("a tag page lists the tag's posts across categories, in both languages", async ({ page, serverDb }) => {
  await seed(serverDb);
  await page.goto("/en/categories/e2e-recipes");
  // Following the tag from a list item keeps the language.
  await listItems(page).filter({ hasText: "Spicy noodles" }).getByRole("link", { name: "#E2E Spicy" }).click();
  await expect(page).toHaveURL(/\/en\/tags\/e2e-spicy$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("E2E Spicy");
  await expect(listItems(page).getByRole("heading")).toHaveText(["A chili grinder", "Spicy noodles"]);

  await page.goto("/zh/tags/e2e-spicy");
  await expect(page).toHaveTitle("麻辣 · 墨水博客");
  await expect(listItems(page).getByRole("heading")).toHaveText(["辣椒研磨器", "麻辣面"]);
  await expect(listItems(page).first()).toContainText("小玩意");
});

test("unknown categories and tags, and pages past the end, are 404", async ({ page, serverDb }) => {
  await seed(serverDb);
  for (const path of ["/categories/no-such-category", "/zh/tags/no-such-tag", "/en/categories/e2e-recipes/page/2"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
  await expect(page.getByTestId("error-message")).toContainText("/en/categories/e2e-recipes/page/2");
});

test("the footer shows the popular categories and links to them", async ({ page, serverDb }) => {
  test.setTimeout(ceiling(75_000));
  await seed(serverDb);
  const footer = page.getByRole("contentinfo");
  const recipes = footer.getByRole("navigation", { name: "Popular categories" }).getByRole("link", { name: "Recipes" });
  // Each server keeps the counts for up to 30 s: an earlier page may have cached them.
  await expect(async () => {
    await page.goto("/en");
    await expect(recipes).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 45_000, intervals: [2000] });
  await recipes.click();
  await expect(page).toHaveURL(/\/categories\/e2e-recipes$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recipes");

  await page.goto("/zh");
  await expect(
    page.getByRole("contentinfo").getByRole("navigation", { name: "热门分类" }).getByRole("link", { name: "食谱" }),
  ).toBeVisible();
});

test("the feeds and the sitemap list a published post", async ({ page, request, serverDb, baseURL }) => {
  const { spicyNoodles, plainRice } = await seed(serverDb);
  const rss = await request.get("/rss.xml");
  expect(rss.status()).toBe(200);
  expect(rss.headers()["content-type"]).toBe("application/rss+xml; charset=utf-8");
  const rssText = await rss.text();
  expect(rssText).toContain("<title>麻辣面</title>");
  // The item link is tagged for Insights; the guid stays the bare address.
  expect(rssText).toContain(`<link>${baseURL}/zh/posts/detail/${spicyNoodles}?utm_source=feed</link>`);
  expect(rssText).toContain(`<guid isPermaLink="true">${baseURL}/zh/posts/detail/${spicyNoodles}</guid>`);
  const enAtom = await (await request.get("/en/atom.xml")).text();
  expect(enAtom).toContain('<title type="text">Spicy noodles</title>');

  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.headers()["content-type"]).toBe("application/xml; charset=utf-8");
  const sitemapText = await sitemap.text();
  expect(sitemapText).toContain(`<loc>${baseURL}/en/posts/detail/${plainRice}</loc>`);
  expect(sitemapText).toContain(`<loc>${baseURL}/zh/categories/e2e-recipes</loc>`);
  expect(sitemapText).toContain(`<loc>${baseURL}/en/tags/e2e-spicy</loc>`);

  // Pages point feed readers at the feeds of their language.
  await page.goto("/zh/categories/e2e-recipes");
  await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
    "href",
    `${baseURL}/zh/rss.xml`,
  );
});

test("category and tag pages have no axe violations, light and dark", async ({ page, serverDb }) => {
  test.setTimeout(ceiling(90_000));
  await seed(serverDb);
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const path of ["/en/categories/e2e-recipes", "/zh/tags/e2e-spicy"]) {
      await page.goto(path);
      const results = await new AxeBuilder({ page }).analyze();
      const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      expect(summary, `${theme} ${path}`).toEqual([]);
    }
  }
});
