import AxeBuilder from "@axe-core/playwright";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { createAd } from "../../app/server/site/ads.server.ts";
import { getSiteSettings, updateSiteSettings } from "../../app/server/site/site-settings.server.ts";
import { signedInAdmin } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe.configure({ mode: "serial" });
// Headless Chromium names itself "HeadlessChrome", which counts as a bot (no impressions,
// no clicks): these tests read the site as an ordinary desktop browser, in New York
// (an ad's start entered for July is summer time, whatever the day the test runs).
test.use({
  timezoneId: "America/New_York",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
});

const LINK_NAME = "E2E Friend Blog";
const AD_TITLE = "E2E Ink Sale";
const AD_TITLE_ZH = "E2E 墨水特卖";

const SLUG_PREFIX = `links-ads-${Date.now()}`;

let footerLinksBefore: boolean | null = null;

test.afterAll(async ({ serverDb }) => {
  // Other files share this database: no links, no ads, the footer setting as it was.
  await serverDb.db.deleteFrom("links").where("name", "like", "E2E %").execute();
  await serverDb.db.deleteFrom("ads").where("title", "like", "E2E %").execute();
  await serverDb.db.deleteFrom("posts").where("slug", "like", `${SLUG_PREFIX}-%`).execute();
  if (footerLinksBefore !== null) await updateSiteSettings(serverDb.db, { footerLinks: footerLinksBefore });
});

test("an admin adds, edits, reorders and deletes friend links; /links and the footer follow", async ({
  page,
  serverDb,
}) => {
  test.slow();
  footerLinksBefore = (await getSiteSettings(serverDb.db)).footerLinks;
  await signedInAdmin(page, serverDb.db, "links-admin");
  await page.goto("/admin");
  // The admin menu's entry (the footer offers the public page too once a link exists).
  const adminMenu = page.getByRole("navigation", { name: "Admin panel" });
  await adminMenu.getByRole("link", { name: "Friend links" }).click();
  await expect(adminMenu.getByRole("link", { name: "Friend links" })).toHaveAttribute("aria-current", "page");

  // Field errors from the shared schema: http(s) only.
  await page.getByRole("link", { name: "New link" }).click();
  await page.getByLabel("Address").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Create link" }).click();
  await expect(page.getByText("A name is required.")).toBeVisible();
  await expect(page.getByText("Use a full http:// or https:// address.").first()).toBeVisible();

  await page.getByLabel("Name").fill(LINK_NAME);
  await page.getByLabel("Address").fill("https://friend.example/");
  await page.getByLabel("Logo").fill("/social.jpg");
  await page.getByLabel("Description").fill("Notes from a friend.");
  await page.getByRole("button", { name: "Create link" }).click();
  await expect(page).toHaveURL(/\/admin\/links$/);

  await page.getByRole("link", { name: "New link" }).click();
  await page.getByLabel("Name").fill("E2E Second Blog");
  await page.getByLabel("Address").fill("http://second.example/");
  await page.getByRole("button", { name: "Create link" }).click();
  await expect(page).toHaveURL(/\/admin\/links$/);

  // Keyboard reorder: the second one moves up.
  await page.getByRole("searchbox", { name: "Search links" }).fill("E2E");
  await page.getByRole("button", { name: "Search" }).click();
  const rows = page.getByRole("row");
  await expect(rows.nth(1)).toContainText(LINK_NAME);
  await page.getByRole("button", { name: "Move “E2E Second Blog” up" }).click();
  await expect(rows.nth(1)).toContainText("E2E Second Blog");
  await expect(rows.nth(2)).toContainText(LINK_NAME);

  // The public page: in order, with the logo and description; external links open normally.
  await page.goto("/links");
  await expect(page.getByRole("heading", { level: 1, name: "Friend links" })).toBeVisible();
  const friend = page.getByRole("main").getByRole("link", { name: LINK_NAME });
  await expect(friend).toHaveAttribute("href", "https://friend.example/");
  await expect(friend).toHaveAttribute("rel", "noopener noreferrer");
  expect(await friend.getAttribute("target")).toBeNull();
  await expect(page.getByText("Notes from a friend.")).toBeVisible();
  const logo = page.getByRole("main").locator('img[src="/social.jpg"]');
  await expect(logo).toHaveAttribute("loading", "lazy");
  await expect(logo).toHaveAttribute("width", "40");
  const names = await page.getByRole("main").getByRole("listitem").getByRole("link").allTextContents();
  expect(names.indexOf("E2E Second Blog")).toBeLessThan(names.indexOf(LINK_NAME));
  await page.goto("/zh/links");
  await expect(page.getByRole("heading", { level: 1, name: "友情链接" })).toBeVisible();

  // The footer shows them only when the setting is on.
  // In English by address: the /zh page above made Chinese the remembered language.
  const footer = page.getByRole("contentinfo");
  await page.goto("/en/about");
  await expect(footer.getByRole("link", { name: LINK_NAME })).toHaveCount(0);
  await updateSiteSettings(serverDb.db, { footerLinks: true });
  await page.goto("/en/about");
  await expect(
    footer.getByRole("navigation", { name: "Friend links" }).getByRole("link", { name: LINK_NAME }),
  ).toBeVisible();
  await updateSiteSettings(serverDb.db, { footerLinks: footerLinksBefore });

  // Edit: hide one; it leaves /links.
  await page.goto("/admin/links");
  await page.getByRole("link", { name: "Edit “E2E Second Blog”" }).click();
  await page.getByLabel("Show this link").uncheck();
  await page.getByRole("button", { name: "Save link" }).click();
  await expect(page.getByRole("row", { name: /E2E Second Blog/ })).toContainText("Hidden");
  await page.goto("/links");
  await expect(page.getByRole("main").getByRole("link", { name: "E2E Second Blog" })).toHaveCount(0);

  // Delete asks first.
  await page.goto("/admin/links");
  await page.getByRole("link", { name: "Delete “E2E Second Blog”" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Delete the link “E2E Second Blog”?");
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("row", { name: /E2E Second Blog/ })).toHaveCount(0);

  await page.goto("/admin");
  const log = page.getByRole("table");
  for (const action of ["link.create", "link.move", "link.update", "link.delete"]) {
    await expect(log.getByText(action).first()).toBeVisible();
  }
});

test("an admin runs a home-top ad: shown with its label, clicks go through the counter, disabling hides it", async ({
  page,
  serverDb,
}) => {
  test.slow();
  await signedInAdmin(page, serverDb.db, "ads-admin");
  const origin = new URL(page.url()).origin;
  const target = `${origin}/about`;
  await page.goto("/admin/ads");
  await expect(page.getByRole("link", { name: "Ads", exact: true })).toHaveAttribute("aria-current", "page");

  // Field errors: a text ad needs text, links are http(s) only, weight 1–100.
  await page.getByRole("link", { name: "New ad" }).click();
  await page.getByLabel("Title (English)").fill(AD_TITLE);
  await page.getByLabel("Link", { exact: true }).fill("/about");
  await page.getByLabel("Weight").fill("0");
  await page.getByRole("button", { name: "Create ad" }).click();
  await expect(page.getByText("A text ad needs its text.")).toBeVisible();
  await expect(page.getByText("Use a full http:// or https:// address.").first()).toBeVisible();
  await expect(page.getByText("The weight is a whole number from 1 to 100.")).toBeVisible();

  await page.getByLabel("Placement").selectOption("home_top");
  await page.getByLabel("Kind").selectOption("text");
  await page.getByLabel("Text (English)").fill("<b>Quills</b> & ink, 20% off");
  // A Chinese version too: each reader sees the ad in their language.
  await page.getByLabel("Title (中文)").fill(AD_TITLE_ZH);
  await page.getByLabel("Text (中文)").fill("羽毛笔和墨水八折");
  await page.getByLabel("Link", { exact: true }).fill(target);
  await page.getByLabel("Weight").fill("100");
  await page.getByLabel("Starts").fill("2026-07-04T12:00");
  await page.getByRole("button", { name: "Create ad" }).click();
  await expect(page).toHaveURL(/\/admin\/ads$/);
  const row = page.getByRole("row", { name: new RegExp(AD_TITLE) });
  await expect(row).toContainText("Home page, top");
  const id = await row.getAttribute("data-ad-row");
  expect(id).toBeTruthy();

  // Shown on the home page, labelled, text escaped, linked through the click route only.
  await page.goto("/en");
  const ad = page.getByRole("complementary", { name: "Advertisement" }).filter({ hasText: AD_TITLE });
  await expect(ad).toBeVisible();
  await expect(ad).toContainText("<b>Quills</b> & ink, 20% off");
  await expect(ad.locator("b")).toHaveCount(0);
  const adLink = ad.getByRole("link", { name: AD_TITLE });
  await expect(adLink).toHaveAttribute("href", `/ads/${id}/click`);
  await expect(adLink).toHaveAttribute("rel", "sponsored noopener");
  expect(await page.content()).not.toContain(target);
  await page.goto("/zh");
  const adZh = page.getByRole("complementary", { name: "广告" }).filter({ hasText: AD_TITLE_ZH });
  await expect(adZh).toContainText("羽毛笔和墨水八折");
  await expect(adZh.getByRole("link", { name: AD_TITLE_ZH })).toHaveAttribute("href", `/ads/${id}/click`);
  await expect(page.getByText(AD_TITLE)).toHaveCount(0);

  // The click route: a 302 to the stored URL, nothing else.
  const direct = await page.request.get(`/ads/${id}/click?to=https://evil.example`, { maxRedirects: 0 });
  expect(direct.status()).toBe(302);
  expect(direct.headers().location).toBe(target);
  expect((await page.request.get("/ads/unknown-ad/click", { maxRedirects: 0 })).status()).toBe(404);
  // A crawler is redirected too, but its visit is not a click.
  const bot = await page.request.get(`/ads/${id}/click`, {
    maxRedirects: 0,
    headers: { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" },
  });
  expect(bot.headers().location).toBe(target);

  await page.goto("/en");
  await page.getByRole("complementary", { name: "Advertisement" }).getByRole("link", { name: AD_TITLE }).click();
  await expect(page).toHaveURL(target);
  await expect(page.getByRole("heading", { level: 1, name: "About" })).toBeVisible();

  // Two clicks counted; impressions arrive with the next batch write.
  await expect
    .poll(
      async () =>
        (
          await serverDb.db
            .selectFrom("ads")
            .select("clicks")
            .where("id", "=", id ?? "")
            .executeTakeFirst()
        )?.clicks,
    )
    .toBe(2);
  await expect
    .poll(
      async () =>
        Number(
          (
            await serverDb.db
              .selectFrom("ads")
              .select("impressions")
              .where("id", "=", id ?? "")
              .executeTakeFirst()
          )?.impressions ?? 0,
        ),
      { timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(3);
  await page.goto("/admin/ads?q=E2E");
  await expect(page.getByRole("row", { name: new RegExp(AD_TITLE) }).locator('[data-col="clicks"]')).toHaveText("2");

  // The start was stored with July's offset (EDT), and the form shows it as entered.
  const stored = await serverDb.db
    .selectFrom("ads")
    .select("startsAt")
    .where("id", "=", id ?? "")
    .executeTakeFirst();
  expect(stored?.startsAt).toBe("2026-07-04T16:00:00.000Z");

  // Disabled: gone from the home page, and the click route no longer redirects.
  await page.getByRole("link", { name: `Edit “${AD_TITLE}”` }).click();
  await expect(page.getByLabel("Starts")).toHaveValue("2026-07-04T12:00");
  await page.getByLabel("Show this ad").uncheck();
  await page.getByRole("button", { name: "Save ad" }).click();
  await expect(page.getByRole("row", { name: new RegExp(AD_TITLE) })).toContainText("Off");
  await page.goto("/en");
  await expect(page.getByText(AD_TITLE)).toHaveCount(0);
  expect((await page.request.get(`/ads/${id}/click`, { maxRedirects: 0 })).status()).toBe(404);

  // Filter by placement, then delete with confirmation.
  await page.goto("/admin/ads");
  await page.getByLabel("Placement").selectOption("post_bottom");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("row", { name: new RegExp(AD_TITLE) })).toHaveCount(0);
  await page.goto("/admin/ads?q=E2E");
  await page.getByRole("link", { name: `Delete “${AD_TITLE}”` }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(`Delete the ad “${AD_TITLE}”`);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("row", { name: new RegExp(AD_TITLE) })).toHaveCount(0);

  await page.goto("/admin");
  const log = page.getByRole("table");
  for (const action of ["ad.create", "ad.update", "ad.delete"]) {
    await expect(log.getByText(action).first()).toBeVisible();
  }
});

test("between-list and post-bottom ads show in their places, image ads at a fixed size", async ({ page, serverDb }) => {
  const postIds: string[] = [];
  for (let i = 1; i <= 4; i++) {
    postIds.push(
      await createPost(serverDb.db, {
        slug: `${SLUG_PREFIX}-${i}`,
        authorId: null,
        status: "published",
        // The newest posts of the blog, so they open /posts.
        publishedAt: new Date(Date.now() - i * 60_000).toISOString(),
        translations: [{ locale: "en", title: `Ads post ${i}`, bodyMarkdown: "Body text." }],
      }),
    );
  }
  const between = await createAd(serverDb.db, {
    placement: "list_between",
    kind: "image",
    titleEn: "E2E Between",
    imageUrlEn: "/social.jpg",
    imageAltEn: "E2E pens",
    linkUrl: "https://pens.example/",
  });
  await createAd(serverDb.db, {
    placement: "post_bottom",
    kind: "text",
    titleEn: "E2E Bottom",
    textEn: "Read more with better ink.",
    linkUrl: "https://ink.example/",
  });

  await page.goto("/en/posts");
  const items = page.getByRole("main").locator("ol > li");
  await expect(items.nth(3).getByRole("complementary", { name: "Advertisement" })).toBeVisible();
  await expect(items.nth(2)).toContainText("Ads post 3");
  await expect(items.nth(4)).toContainText("Ads post 4");
  const image = items.nth(3).getByRole("img", { name: "E2E pens" });
  await expect(image).toHaveAttribute("width", "728");
  await expect(image).toHaveAttribute("height", "90");
  await expect(items.nth(3).getByRole("link")).toHaveAttribute("href", `/ads/${between}/click`);

  await page.goto(`/en/posts/detail/${postIds[0]}`);
  const bottom = page.getByRole("complementary", { name: "Advertisement" });
  await expect(bottom).toContainText("E2E Bottom");
  await expect(bottom).toContainText("Read more with better ink.");
  // Below the body, inside the post.
  await expect(page.getByRole("article").first().getByRole("complementary", { name: "Advertisement" })).toBeVisible();

  // A sidebar ad: after the post and its related links (the layout has one column).
  await createAd(serverDb.db, {
    placement: "sidebar",
    kind: "text",
    titleEn: "E2E Side",
    textEn: "Paper for every pen.",
    linkUrl: "https://paper.example/",
  });
  await page.goto(`/en/posts/detail/${postIds[0]}`);
  const ads = page.getByRole("complementary", { name: "Advertisement" });
  await expect(ads).toHaveCount(2);
  await expect(ads.filter({ hasText: "Paper for every pen." })).toBeVisible();
  await expect(page.getByRole("article").first()).not.toContainText("Paper for every pen.");
});

test("the links and ads pages pass axe", async ({ page, serverDb }) => {
  // Five pages of axe: slow on a loaded machine.
  test.slow();
  await signedInAdmin(page, serverDb.db, "links-axe");
  for (const path of ["/admin/links", "/admin/links/new", "/admin/ads", "/admin/ads/new", "/links"]) {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }
});
