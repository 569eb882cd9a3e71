import AxeBuilder from "@axe-core/playwright";
import { addReaction } from "../../app/server/federation/inbound-store.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

// Readers arrive at a post in both languages from other sites and from our newsletter,
// search for something that is not there and follow a dead link; the admin then sees all
// of it in Insights. Other files share the database, so only this file's rows are checked.

const STAMP = Date.now();
const SLUG = `insights-${STAMP}`;
const REFERRER = `ref-${STAMP}.example`;
const QUERY = `nothingmatches${STAMP}`;
// Other files may poll the feed too; this figure is the day's highest for /en/rss.xml.
const FEED_SUBSCRIBERS = 900_000 + (STAMP % 99_999);

// Playwright's own "HeadlessChrome" is a bot to Insights, as it should be.
test.use({
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
});

test.afterAll(async ({ serverDb }) => {
  await serverDb.db.deleteFrom("posts").where("slug", "=", SLUG).execute();
});

test("readers' visits in both languages show in the admin's Insights", async ({ page, serverDb }) => {
  const postId = await createPost(serverDb.db, {
    slug: SLUG,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-01T00:00:00.000Z",
    translations: [
      { locale: "en", title: `Insights journey ${STAMP}` },
      { locale: "zh", title: `洞察之旅 ${STAMP}` },
    ],
  });
  await page.goto(`/en/posts/detail/${postId}`, { referer: `https://www.${REFERRER}/links` });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Insights journey ${STAMP}`);
  await page.goto(`/zh/posts/detail/${postId}?utm_source=newsletter`, { referer: "https://www.zhihu.com/question/1" });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`洞察之旅 ${STAMP}`);
  await page.goto(`/en/search?q=${QUERY}`);
  const missing = await page.goto(`/en/gone-${STAMP}`, { referer: `https://${REFERRER}/old` });
  expect(missing?.status()).toBe(404);

  // A feed reader app polls the feed and says how many of its users follow it.
  const feed = await page.request.get("/en/rss.xml", {
    headers: { "User-Agent": `Feedly/1.0 (+http://www.feedly.com/fetcher.html; ${FEED_SUBSCRIBERS} subscribers; )` },
  });
  expect(feed.status()).toBe(200);

  // Someone on Mastodon likes and boosts the post.
  const fan = {
    uri: `https://social-${STAMP}.example/users/fan`,
    url: null,
    handle: `@fan@social-${STAMP}.example`,
    name: "Fan",
    avatarUrl: null,
    server: `social-${STAMP}.example`,
  };
  await addReaction(serverDb.db, { postId, actor: fan, kind: "like", activityUri: `${fan.uri}/likes/1` });
  await addReaction(serverDb.db, { postId, actor: fan, kind: "announce", activityUri: `${fan.uri}/boosts/1` });

  const adminEmail = await signedInAdmin(page, serverDb.db, "insights-admin");
  // The owner's own reading is not a reader's: not counted.
  await page.goto(`/en/posts/detail/${postId}`, { referer: `https://www.${REFERRER}/links` });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Insights journey ${STAMP}`);
  await page.goto("/admin");
  await page.getByRole("link", { name: "Insights", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Insights" })).toBeVisible();
  await expect(page.getByTestId("insights-chart").locator("title")).toHaveText("Views and visitors, last 30 days");
  await expect(
    page.getByTestId("insights-posts").getByRole("row", { name: `Insights journey ${STAMP}` }),
  ).toContainText("2");
  const languages = page.getByTestId("insights-languages");
  await expect(languages.getByRole("row", { name: /English/ })).toBeVisible();
  await expect(languages.getByRole("row", { name: /中文/ })).toBeVisible();
  await expect(page.getByTestId("insights-referrers").getByRole("row", { name: REFERRER })).toBeVisible();
  await expect(page.getByTestId("insights-referrers").getByRole("row", { name: /Zhihu/ })).toBeVisible();
  await expect(page.getByTestId("insights-sources").getByRole("row", { name: /Newsletter/ })).toBeVisible();
  await expect(page.getByTestId("insights-zeroSearches").getByRole("row", { name: QUERY })).toBeVisible();
  await expect(page.getByTestId("insights-notFound")).toContainText(`/en/gone-${STAMP} ← ${REFERRER}`);
  await expect(page.getByTestId("insights-feedReaders").getByRole("row", { name: /Feedly/ })).toContainText(
    String(FEED_SUBSCRIBERS),
  );
  const fediverse = page.getByTestId("insights-fediverse");
  await expect(fediverse.getByTestId("insights-fediverse-followers")).toContainText("followers of @blog-en@");
  await expect(fediverse.getByRole("row", { name: `Insights journey ${STAMP}` })).toHaveText(
    new RegExp(`Insights journey ${STAMP}\\s*1\\s*1\\s*0\\s*0`),
  );

  // The page passes axe in dark mode (the harder case for contrast); the chart's numbers on
  // demand, and the period switch.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  const results = await new AxeBuilder({ page }).include("main").analyze();
  expect(results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" "))}`)).toEqual([]);
  await page.getByText("Show the chart's data as a table").click();
  await expect(page.getByTestId("insights-days").getByRole("row")).toHaveCount(31);
  await page.getByRole("link", { name: "7 days" }).click();
  await expect(page.getByTestId("insights-days").getByRole("row")).toHaveCount(8);

  // A 404 is one click from a redirect that starts at its path.
  await page.getByRole("link", { name: `Add a redirect from /en/gone-${STAMP}` }).click();
  await expect(page.getByLabel("Old path")).toHaveValue(`/en/gone-${STAMP}`);

  // The post's own Insights, from its row in the admin's post list.
  await page.goto(`/admin/blog?q=${STAMP}`);
  await page.getByRole("link", { name: new RegExp(`Insights journey ${STAMP}.*its insights`) }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Insights: Insights journey ${STAMP}`);
  await expect(page.getByTestId("post-insights-views")).toHaveText("2");
  await expect(page.getByTestId("post-insights-chart").locator("title")).toHaveText("Views, last 30 days");
  await expect(page.getByTestId("insights-languages").getByRole("row", { name: /English/ })).toContainText("1");
  await expect(page.getByTestId("insights-languages").getByRole("row", { name: /中文/ })).toContainText("1");
  await expect(page.getByTestId("insights-referrers").getByRole("row", { name: REFERRER })).toBeVisible();
  await expect(page.getByTestId("insights-sources").getByRole("row", { name: /Newsletter/ })).toBeVisible();
  const postAxe = await new AxeBuilder({ page }).include("main").analyze();
  expect(postAxe.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" "))}`)).toEqual([]);

  // And in the editor, once the post is the admin's, in Chinese.
  const admin = await serverDb.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", adminEmail)
    .executeTakeFirstOrThrow();
  await serverDb.db.updateTable("posts").set({ authorId: admin.id }).where("id", "=", postId).execute();
  await page.goto(`/zh/posts/edit/${postId}`);
  const readers = page.getByRole("complementary", { name: "最近 30 天的读者" });
  await expect(readers).toContainText("2 次浏览");
  await readers.getByRole("link", { name: "这篇文章的洞察" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/insights/posts/${postId}$`));
});
