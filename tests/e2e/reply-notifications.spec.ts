import AxeBuilder from "@axe-core/playwright";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { signedInUser } from "./account-helpers.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";
import { linkIn, mailTo } from "./mail.ts";

// Issue #20, reply notifications: A comments, B replies, A gets a mail with a
// stop link; opening it changes nothing, pressing its button stops the mail,
// and A's account page says so (and turns it back on).

// Two accounts registered through the mail capture: slow on two cores.
test.setTimeout(ceiling(90_000));

const run = Date.now().toString(36);

test("a reply mails the comment's author, whose stop link turns reply mail off", async ({
  page,
  browser,
  baseURL,
  serverDb,
}) => {
  const title = `Notified post ${run}`;
  const postId = await createPost(serverDb.db, {
    slug: `notified-${run}`,
    authorId: null,
    status: "published",
    publishedAt: "2025-03-03T03:03:03.000Z",
    translations: [{ locale: "en", title, bodyMarkdown: "Body.", bodyHtml: "<p>Body.</p>" }],
  });

  const alice = await signedInUser(page, "notify-alice");
  await page.goto(`/posts/detail/${postId}`);
  await page.getByLabel("Your comment").fill("Who else reads this?");
  await page.getByRole("button", { name: "Post comment" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your comment was posted." }).first()).toBeVisible();

  const bobContext = await browser.newContext({ baseURL });
  const bobPage = await bobContext.newPage();
  const bob = await signedInUser(bobPage, "notify-bob");
  await bobPage.goto(`/posts/detail/${postId}`);
  await bobPage.getByTestId("comment").first().getByText("Reply", { exact: true }).click();
  await bobPage.getByLabel("Your reply").fill("I do, every week.");
  await bobPage.getByRole("button", { name: "Post reply" }).click();
  await expect(bobPage.getByRole("list", { name: "Replies" }).getByTestId("comment")).toContainText("every week");
  await bobContext.close();

  const mail = await mailTo(alice, /replied to your comment/);
  const bobName = bob.split("@")[0] ?? "";
  expect(mail.subject).toBe(`${bobName} replied to your comment on “${title}”`);
  expect(mail.text).toContain("I do, every week.");
  expect(mail.text).toMatch(new RegExp(`/en/posts/detail/${postId}#comment-\\w+`));
  const stop = linkIn(mail, "/notifications/replies/stop");

  // Opening the link (as a mail scanner would) changes nothing.
  await page.goto(stop);
  await expect(page.getByRole("heading", { name: "Stop reply notifications" })).toBeVisible();
  const setting = async () =>
    (
      await serverDb.db
        .selectFrom("users")
        .select("replyNotifications")
        .where("email", "=", alice)
        .executeTakeFirstOrThrow()
    ).replyNotifications;
  expect(Number(await setting())).toBe(1);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);

  await page.getByRole("button", { name: "Stop reply notifications" }).click();
  await expect(page.getByRole("status")).toContainText("you will get no more mail about replies");
  expect(Number(await setting())).toBe(0);

  await page.goto("/account");
  const box = page.getByLabel("Mail me when someone replies to my comments");
  await expect(box).not.toBeChecked();
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await box.check();
  await page.getByRole("region", { name: "Notifications" }).getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Reply notifications are on." })).toBeVisible();
  await expect(box).toBeChecked();
  expect(Number(await setting())).toBe(1);
});
