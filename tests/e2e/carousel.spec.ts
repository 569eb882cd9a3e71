import AxeBuilder from "@axe-core/playwright";
import { createSlide } from "../../app/server/site/carousel.server.ts";
import { signedInUser } from "./account-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ serverDb }) => {
  await createSlide(serverDb.db, {
    titleEn: "Spring sale",
    titleZh: "春季特卖",
    imageUrl: "/social.jpg",
    imageAlt: "Blossoms",
    sortOrder: 1,
  });
  await createSlide(serverDb.db, {
    titleEn: "Summer notes",
    titleZh: "夏日笔记",
    imageUrl: "/social.jpg",
    imageAlt: "Sea",
    linkUrl: "/about",
    sortOrder: 2,
  });
  await createSlide(serverDb.db, { titleEn: "Hidden slide", imageUrl: "/social.jpg", enabled: false });
});

test.afterAll(async ({ serverDb }) => {
  // Other files share this database and expect no slides.
  await serverDb.db.deleteFrom("swapers").execute();
});

test("the home page carousel moves by button, key and swipe, and stays still for reduced motion", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/en");
  const carousel = page.getByRole("region", { name: "Featured" });
  await expect(carousel).toBeVisible();
  const slides = carousel.getByRole("group", { includeHidden: true });
  await expect(slides).toHaveCount(2);
  const visible = carousel.getByRole("group");
  await expect(visible).toHaveCount(1);
  await expect(visible).toHaveAccessibleName("1 of 2");
  await expect(visible).toContainText("Spring sale");
  // Reduced motion: it does not play by itself.
  await expect(carousel.getByRole("button", { name: "Play the slides" })).toBeVisible();

  await carousel.getByRole("button", { name: "Next slide" }).click();
  await expect(carousel.getByRole("group")).toContainText("Summer notes");
  // On an /en page the slide leads to the English page.
  await expect(carousel.getByRole("link", { name: /Summer notes/ })).toHaveAttribute("href", "/en/about");

  await carousel.getByRole("button", { name: "Previous slide" }).press("ArrowRight");
  await expect(carousel.getByRole("group")).toContainText("Spring sale");

  const box = await carousel.getByRole("group").boundingBox();
  if (!box) throw new Error("slide has no box");
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(carousel.getByRole("group")).toContainText("Summer notes");

  await carousel.getByRole("button", { name: "Show slide 1" }).click();
  await expect(carousel.getByRole("group")).toHaveAccessibleName("1 of 2");
});

test("the slides play by themselves when motion is fine, with Chinese titles on /zh", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await page.clock.install();
  await page.goto("/zh");
  const carousel = page.getByRole("region", { name: "精选" });
  await expect(carousel.getByRole("group")).toContainText("春季特卖");
  await expect(carousel.getByRole("button", { name: "暂停轮播" })).toBeVisible();
  await page.clock.runFor(6_500);
  await expect(carousel.getByRole("group")).toContainText("夏日笔记");
  await carousel.getByRole("button", { name: "暂停轮播" }).click();
  await expect(carousel.getByRole("button", { name: "播放轮播" })).toBeVisible();
});

test("without JavaScript every slide is reachable by scrolling, and no dead buttons show", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  try {
    const page = await context.newPage();
    await page.goto("/en");
    const carousel = page.getByRole("region", { name: "Featured" });
    await expect(carousel.getByRole("group")).toHaveCount(2);
    await expect(carousel.getByRole("button")).toHaveCount(0);
    const row = carousel.locator("[data-slide-viewport]");
    expect(await row.evaluate((el) => getComputedStyle(el).scrollSnapType)).toContain("x");
    await carousel.getByRole("link", { name: /Summer notes/ }).scrollIntoViewIfNeeded();
    await expect(carousel.getByRole("link", { name: /Summer notes/ })).toBeInViewport();
  } finally {
    await context.close();
  }
});

test("a signed-in reader's carousel is the app's, and moves by button", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signedInUser(page, "carousel");
  await page.goto("/en");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const carousel = page.getByRole("region", { name: "Featured" });
  await expect(carousel.getByRole("group")).toHaveAccessibleName("1 of 2");
  await carousel.getByRole("button", { name: "Next slide" }).click();
  await expect(carousel.getByRole("group")).toContainText("Summer notes");
});

test("the carousel passes axe in both themes", async ({ page }) => {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.goto("/en");
    await expect(page.getByRole("region", { name: "Featured" })).toBeVisible();
    const results = await new AxeBuilder({ page }).include('[data-testid="carousel"]').analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  }
});

test("the post list pages have no carousel", async ({ page }) => {
  await page.goto("/posts");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("carousel")).toHaveCount(0);
});
