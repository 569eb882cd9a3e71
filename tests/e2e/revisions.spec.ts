import type { Page } from "@playwright/test";
import { createEditorPost } from "../../app/server/posts/post-editor.server.ts";
import { login, signedInAdmin } from "./account-helpers.ts";
import { axeFindings, rulesFor } from "./axe.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";

// Editing a live post safely and the revision history (issue 23): Save keeps a live
// post's changes from readers until Update; History compares revisions and restores one,
// without JavaScript too; a private preview link opens a draft for a signed-out reader
// until it is revoked.

const writers: string[] = [];

test.afterAll(async ({ serverDb }) => {
  if (writers.length === 0) return;
  const authors = serverDb.db.selectFrom("users").select("id").where("email", "in", writers);
  await serverDb.db.deleteFrom("posts").where("authorId", "in", authors).execute();
});

const panel = (page: Page) => page.getByRole("tabpanel", { name: "English" });

test("a live post's edit stays unseen until Update, and an old revision comes back from the diff view", async ({
  page,
  serverDb,
  browser,
}) => {
  // Three browsers (the writer, a reader, the writer without JavaScript) and two axe runs:
  // more than one ordinary test's time.
  test.setTimeout(ceiling(120_000));
  const email = await signedInAdmin(page, serverDb.db, "reviser");
  writers.push(email);
  const author = await serverDb.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  const created = await createEditorPost(serverDb.db, author.id, {
    slug: `live-revisions-${Date.now()}`,
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "published",
    publishAt: null,
    translations: [
      {
        locale: "en",
        title: "A live post",
        summary: "",
        bodyMarkdown: "The old words.",
        seoTitle: null,
        seoDescription: null,
      },
    ],
  });
  if (!created.ok) throw new Error("could not create the post");
  const editPath = `/posts/edit/${created.id}`;
  const readerPath = `/posts/detail/${created.id}`;

  const reader = await browser.newContext();
  const plain = await browser.newContext({ javaScriptEnabled: false });
  try {
    const anonymous = await reader.newPage();
    await anonymous.goto(readerPath);
    await expect(anonymous.getByRole("main")).toContainText("The old words.");

    // Save: the changes are kept, readers do not see them.
    await page.goto(editPath);
    await expect(page.getByTestId("live-notice")).toContainText("This post is live.");
    const body = panel(page).getByRole("textbox", { name: "Body (Markdown)" });
    await expect(panel(page).locator(".cm-content")).toBeVisible();
    await body.fill("The new words.");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Readers do not see them until you press Update.").first()).toBeVisible();
    await expect(page.getByTestId("live-notice")).toContainText("You have unpublished changes");
    await expect(panel(page).locator(".cm-content")).toHaveText("The new words.");
    await anonymous.reload();
    await expect(anonymous.getByRole("main")).toContainText("The old words.");
    await expect(anonymous.getByRole("main")).not.toContainText("The new words.");

    // Update: now readers see them.
    await page.getByRole("button", { name: "Update", exact: true }).click();
    // The dialog says what an update does, then the writer confirms.
    const confirm = page.getByRole("dialog", { name: "Update the live post?" });
    await expect(confirm.getByTestId("publish-mail")).toHaveText("No e-mail is sent for an update.");
    await confirm.getByRole("button", { name: "Update now" }).click();
    await expect(page.getByText("The post was updated. Readers see your changes now.")).toBeVisible();
    await anonymous.reload();
    await expect(anonymous.getByRole("main")).toContainText("The new words.");

    // Without JavaScript: History, compare, restore the older revision.
    const noJs = await plain.newPage();
    await login(noJs, email);
    await noJs.goto(editPath);
    await noJs.getByRole("link", { name: "History" }).click();
    await expect(noJs.getByRole("heading", { level: 1 })).toHaveText("History of “A live post”");
    await noJs.getByRole("button", { name: "Compare the chosen revisions" }).click();
    await expect(noJs).toHaveURL(/\/history\/[0-9a-z]{20}\.\.\.[0-9a-z]{20}$/);
    const diff = noJs.getByTestId("diff-en-body");
    await expect(diff.locator("del")).toHaveText("[removed: old]");
    await expect(diff.locator("ins")).toHaveText("[added: new]");
    const diffPath = new URL(noJs.url()).pathname;
    await noJs.getByRole("button", { name: "Restore the “from” revision" }).click();
    await expect(noJs).toHaveURL(new RegExp(`${editPath}$`));
    await expect(noJs.getByText("The revision was restored as unpublished changes.").first()).toBeVisible();
    await expect(noJs.locator("textarea[name=enBody]")).toHaveValue("The old words.");
    // Restoring a live post's revision waits for Update too.
    await anonymous.reload();
    await expect(anonymous.getByRole("main")).toContainText("The new words.");

    // The diff marks changes by more than colour, and the live notice holds three forms:
    // axe checks both pages in both themes.
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const path of [diffPath, editPath]) {
        await page.goto(path);
        if (path === editPath) await expect(page.getByLabel("Publish these changes at")).toBeVisible();
        const summary = await axeFindings(page, { exclude: "[data-testid=site-header]", rules: rulesFor(theme) });
        expect(summary, `${theme} ${path}`).toEqual([]);
      }
    }
  } finally {
    await reader.close();
    await plain.close();
  }
});

test("a preview link shows a draft to a signed-out reader until it is revoked", async ({ page, serverDb, browser }) => {
  const email = await signedInAdmin(page, serverDb.db, "previewer");
  writers.push(email);
  const author = await serverDb.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  const created = await createEditorPost(serverDb.db, author.id, {
    slug: `preview-draft-${Date.now()}`,
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "draft",
    publishAt: null,
    translations: [
      {
        locale: "en",
        title: "A draft to show",
        summary: "",
        bodyMarkdown: "Words for **a friend**.",
        seoTitle: null,
        seoDescription: null,
      },
    ],
  });
  if (!created.ok) throw new Error("could not create the post");

  await page.goto(`/posts/edit/${created.id}`);
  await page.getByRole("link", { name: "Share preview" }).click();
  await expect(page.getByLabel("Link works for")).toHaveValue("48");
  await page.getByRole("button", { name: "Create a preview link" }).click();
  const url = await page.getByTestId("preview-url").inputValue();
  expect(url).toMatch(/\/preview\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("button", { name: /^Revoke the link created/ })).toHaveCount(1);

  const reader = await browser.newContext();
  try {
    const anonymous = await reader.newPage();
    const path = new URL(url).pathname;
    const response = await anonymous.goto(path);
    expect(response?.headers()["x-robots-tag"]).toContain("noindex");
    await expect(anonymous.getByTestId("preview-banner")).toBeVisible();
    await expect(anonymous.getByRole("heading", { level: 1 })).toHaveText("A draft to show");
    await expect(anonymous.getByRole("main").locator("strong")).toHaveText("a friend");
    await expect(anonymous.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    // The draft itself stays private.
    const detail = await reader.request.get(`/posts/detail/${created.id}`);
    expect(detail.status()).toBe(404);

    await page.getByRole("button", { name: /^Revoke the link created/ }).click();
    await expect(page.getByText("The link was revoked; it no longer opens the preview.")).toBeVisible();
    const gone = await reader.request.get(path);
    expect(gone.status()).toBe(404);
  } finally {
    await reader.close();
  }
});
