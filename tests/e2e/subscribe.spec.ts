import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { linkIn, mailTo, uniqueEmail } from "./mail.ts";

const CHECK_INBOX = "Thanks! Check your inbox: we sent a link to confirm your subscription.";

async function mailCount(to: string): Promise<number> {
  const res = await fetch(`${process.env.E2E_MAIL_API}/messages?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as unknown[]).length;
}

function footerBox(page: Page) {
  return page.getByRole("contentinfo").getByRole("region", { name: "Newsletter" });
}

async function subscribeFromFooter(page: Page, email: string): Promise<void> {
  const box = footerBox(page);
  await box.getByLabel("E-mail for new posts").fill(email);
  await box.getByRole("button", { name: "Subscribe" }).click();
  await expect(box.getByRole("status")).toHaveText(CHECK_INBOX);
}

test("subscribe from the footer, confirm by mail, unsubscribe, subscribe again", async ({ page, serverDb }) => {
  const email = uniqueEmail("reader");
  const row = () =>
    serverDb.db.selectFrom("subscribers").select(["status", "updatedAt"]).where("email", "=", email).executeTakeFirst();

  await page.goto("/posts");
  const box = footerBox(page);
  await expect(box.getByText("New posts in your inbox.", { exact: false })).toBeVisible();
  await expect(box.getByLabel("E-mail for new posts")).toHaveAttribute("placeholder", "you@example.com");
  await expect(box.getByLabel("E-mail for new posts")).toHaveAttribute("type", "email");
  await expect(box.getByLabel("E-mail for new posts")).toHaveAttribute("required", "");
  const asked = Date.now();
  await subscribeFromFooter(page, email);
  // A fetcher: the reader stays on the page.
  await expect(page).toHaveURL(/\/posts$/);
  expect((await row())?.status).toBe("pending");

  const mail = await mailTo(email, /Confirm your subscription to Inkwell/, asked);
  expect(mail.text).toContain("/en/unsubscribe?token=");
  const confirmUrl = linkIn(mail, "/subscribe/confirm");
  // Opening the link changes nothing; the button does.
  await page.goto(confirmUrl);
  await expect(page.getByRole("heading", { name: "Confirm your subscription" })).toBeVisible();
  expect((await row())?.status).toBe("pending");
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Your subscription is confirmed. Thank you!");
  expect((await row())?.status).toBe("confirmed");

  // The same address again: the same answer, no mail, nothing changed.
  const before = await row();
  const mailsBefore = await mailCount(email);
  await page.goto("/");
  await subscribeFromFooter(page, email);
  expect(await row()).toEqual(before);
  expect(await mailCount(email)).toBe(mailsBefore);

  // A tampered token is refused and changes nothing.
  await page.goto(`${linkIn(mail, "/unsubscribe")}x`);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "This link is invalid or no longer works. Nothing was changed.",
  );
  expect((await row())?.status).toBe("confirmed");

  await page.goto(linkIn(mail, "/unsubscribe"));
  expect((await row())?.status).toBe("confirmed");
  await page.getByRole("main").getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "You are unsubscribed. We will not send you any more e-mail.",
  );
  expect((await row())?.status).toBe("unsubscribed");

  // Subscribing after unsubscribing starts a new opt-in with a new mail.
  const again = Date.now();
  await page.goto("/");
  await subscribeFromFooter(page, email);
  expect((await row())?.status).toBe("pending");
  const second = await mailTo(email, /Confirm your subscription/, again);
  expect(linkIn(second, "/subscribe/confirm")).not.toBe(confirmUrl);
});

test("the footer checks the address in the browser before posting", async ({ page }) => {
  await page.goto("/");
  const box = footerBox(page);
  let posted = false;
  page.on("request", (r) => {
    if (r.method() === "POST") posted = true;
  });
  await box.getByLabel("E-mail for new posts").fill("not-an-email");
  await box.getByRole("button", { name: "Subscribe" }).click();
  await expect(box.getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(box.getByLabel("E-mail for new posts")).toHaveAttribute("aria-invalid", "true");
  await expect(box.getByLabel("E-mail for new posts")).toBeFocused();
  expect(posted).toBe(false);
});

test("without JavaScript the footer posts to a page that answers", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/en");
  // 'a@b' passes the browser's type=email check; the server refuses it.
  await footerBox(page).getByLabel("E-mail for new posts").fill("a@b");
  await footerBox(page).getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(/\/en\/subscribe$/);
  const main = page.getByRole("main");
  await expect(main.getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(main.getByLabel("E-mail for new posts")).toHaveAttribute("aria-invalid", "true");

  const email = uniqueEmail("nojs");
  const asked = Date.now();
  await main.getByLabel("E-mail for new posts").fill(email);
  await main.getByRole("button", { name: "Subscribe" }).click();
  await expect(main.getByRole("status")).toHaveText(CHECK_INBOX);
  const mail = await mailTo(email, /Confirm your subscription/, asked);
  await page.goto(linkIn(mail, "/subscribe/confirm"));
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Your subscription is confirmed. Thank you!");
  await context.close();
});

test("in Chinese the box, the mail and the pages are in Chinese", async ({ page }) => {
  const email = uniqueEmail("zh-reader");
  await page.goto("/zh");
  const box = page.getByRole("contentinfo").getByRole("region", { name: "订阅" });
  await expect(box.getByText("新文章发送到你的邮箱。", { exact: false })).toBeVisible();
  const asked = Date.now();
  await box.getByLabel("电子邮件地址").fill(email);
  await box.getByRole("button", { name: "订阅" }).click();
  await expect(box.getByRole("status")).toHaveText("谢谢！请查收邮件：我们已发送确认订阅的链接。");

  const mail = await mailTo(email, /确认订阅 墨水博客/, asked);
  expect(mail.text).toContain("/zh/unsubscribe?token=");
  await page.goto(linkIn(mail, "/subscribe/confirm"));
  await page.getByRole("button", { name: "确认订阅" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("订阅已确认，谢谢！");
  await page.goto(linkIn(mail, "/unsubscribe"));
  await page.getByRole("main").getByRole("button", { name: "退订" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("你已退订，我们不会再给你发送邮件。");
});
