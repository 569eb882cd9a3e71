import { generateKeyPairSync, randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { type Address, getBase58Decoder, lamports } from "@solana/kit";
import { findAssociatedTokenPda, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { shortAddress } from "../../app/lib/solana/address.ts";
import { RPC_COOKIE } from "../../app/lib/solana/network.ts";
import { TOKEN_2022_PROGRAM_ADDRESS } from "../../app/lib/solana/transfer-plan.ts";
import { startTestRpc, type TestRpc } from "../setup/solana-rpc.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";
import { registerTestWallet, type TestWalletInput } from "./solana-wallet.ts";

// The /solana pages end to end: a Wallet Standard wallet registered in the page (Ed25519 key made
// here), a JSON-RPC endpoint executing on litesvm, the custom RPC picked in the page.

const b58 = getBase58Decoder();
const randomAddress = () => b58.decode(randomBytes(32)) as Address;
/** An address on the curve (a real key's), which the batch page takes without a warning. */
const walletAddress = () =>
  b58.decode(generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "der" }).subarray(-32)) as Address;

function makeWallet(): TestWalletInput {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ type: "spki", format: "der" }).subarray(-32);
  return {
    name: "Test Wallet",
    address: b58.decode(raw),
    publicKey: [...raw],
    pkcs8: [...privateKey.export({ type: "pkcs8", format: "der" })],
  };
}

let rpc: TestRpc;
const wallet = makeWallet();
const owner = wallet.address as Address;
const emptyAccounts = [randomAddress(), randomAddress(), randomAddress()];
const fullAccount = randomAddress();

test.beforeAll(async () => {
  rpc = await startTestRpc();
  rpc.svm.airdrop(owner, lamports(10_000_000_000n));
  for (const address of emptyAccounts) rpc.addTokenAccount(address, { mint: randomAddress(), owner, amount: 0n });
  rpc.addTokenAccount(fullAccount, { mint: randomAddress(), owner, amount: 5n });
});

test.afterAll(async () => {
  await rpc?.close();
});

test.use({ expectedConsoleErrors: [/status of 503/] });

async function hydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

/** Opens a /solana page with the test wallet registered, on the test RPC (English or Chinese labels). */
async function openOnTestRpc(page: Page, wallet: TestWalletInput, path: string) {
  const zh = path.startsWith("/zh/");
  await page.addInitScript(registerTestWallet, wallet);
  await page.goto(path);
  await page.getByRole("combobox", { name: zh ? "网络" : "Network" }).selectOption("custom");
  await page.getByRole("textbox", { name: zh ? "RPC 地址" : "RPC URL" }).fill(rpc.url);
  await page.getByRole("button", { name: zh ? "使用此网络" : "Use this network" }).click();
  // The page reloads so its CSP allows the RPC; it uses the RPC only once that document has it.
  await expect(page.getByTestId("rpc-url")).toHaveText(rpc.url);
  await hydrated(page);
}

/** "0.000105 SOL" (as the page shows amounts) in lamports, exactly. */
function lamportsIn(text: string): bigint {
  const match = /(\d+)(?:\.(\d{1,9}))? SOL/.exec(text);
  if (!match) throw new Error(`no SOL amount in "${text}"`);
  return BigInt(match[1] ?? "0") * 1_000_000_000n + BigInt((match[2] ?? "").padEnd(9, "0"));
}

async function axe(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, label).toEqual([]);
}

test("connect, close empty accounts, batch-send with an interruption and resume", async ({ page }) => {
  test.setTimeout(ceiling(90_000));
  await page.addInitScript(registerTestWallet, wallet);

  await test.step("pick the custom RPC (connect-src follows) and connect the wallet", async () => {
    await page.goto("/en/solana");
    const plain = await page.request.get("/en/solana");
    expect(plain.headers()["content-security-policy"]).not.toContain(rpc.url.replace(/\/$/, ""));
    await page.getByRole("combobox", { name: "Network" }).selectOption("custom");
    await page.getByRole("textbox", { name: "RPC URL" }).fill(rpc.url);
    await page.getByRole("button", { name: "Use this network" }).click();
    await hydrated(page);
    await expect(page.getByTestId("rpc-url")).toHaveText(rpc.url);
    const solanaCsp = (await page.request.get("/en/solana")).headers()["content-security-policy"];
    expect(solanaCsp).toContain("connect-src 'self' https: wss: http://127.0.0.1");
    expect((await page.request.get("/en")).headers()["content-security-policy"]).toContain("connect-src 'self';");
    await page.getByRole("button", { name: "Connect Test Wallet" }).click();
    await expect(page.getByTestId("wallet-address")).toHaveAttribute("title", owner);
    await axe(page, "/en/solana");
  });

  await test.step("close the three empty token accounts in one transaction", async () => {
    await page.getByRole("link", { name: "Close token accounts" }).first().click();
    const rent = rpc.svm.minimumBalanceForRentExemption(165n);
    await expect(page.getByTestId("closable").locator("tbody tr")).toHaveCount(3);
    await expect(page.getByText("still holds tokens")).toBeVisible();
    const total = Number(3n * rent) / 1e9;
    await expect(page.getByTestId("close-total")).toHaveText(`${total} SOL`);
    await axe(page, "/en/solana/closeToken");
    // The fees are shown before anything is signed: the network fee and a priority fee.
    const fees = page.getByTestId("close-fees");
    await expect(fees).toContainText("network 0.000005 SOL");
    const feesShown = lamportsIn((await fees.textContent()) ?? "");
    expect(feesShown).toBeGreaterThan(5000n);
    const sentBefore = rpc.sentBudgets.length;
    const before = rpc.svm.getBalance(owner) ?? 0n;
    await page.getByRole("button", { name: "Close selected accounts (3)" }).click();
    await expect(page.getByTestId("tx-list").locator("li[data-state=confirmed]")).toHaveCount(1);
    // The outcome stays above the reloaded list.
    await expect(page.getByTestId("close-outcome")).toHaveText(
      `Closed 3 accounts; ${Number(3n * rent) / 1e9} SOL returned to your wallet.`,
    );
    await expect(page.getByText("No empty token account to close.")).toBeVisible();
    for (const a of emptyAccounts) expect(rpc.svm.getAccount(a).exists).toBe(false);
    expect(rpc.svm.getAccount(fullAccount).exists).toBe(true);
    expect((rpc.svm.getBalance(owner) ?? 0n) - before).toBe(3n * rent - feesShown);
    const sent = rpc.sentBudgets.slice(sentBefore);
    expect(sent).toHaveLength(1);
    // "Normal" on the test RPC's recent fees (a median of 2,000 micro-lamports per unit).
    expect(sent[0]?.unitPrice).toBe(2_000n);
    expect(sent[0]?.unitLimit).toBeGreaterThan(0);
  });

  const recipients = Array.from({ length: 30 }, () => walletAddress());
  await test.step("batch-send SOL to 30 recipients; the RPC drops the second transaction", async () => {
    await page.getByRole("link", { name: "Batch transfer" }).first().click();
    await page.getByLabel("Recipients (address,amount per line)").fill(recipients.map((r) => `${r},0.01`).join("\n"));
    await page.getByRole("button", { name: "Check the list" }).click();
    await expect(page.getByTestId("rows-valid")).toHaveText("Valid rows: 30 of 30.");
    await expect(page.getByTestId("cost")).toContainText("Transactions: 2");
    await axe(page, "/en/solana/transferBatch");
    rpc.dropSend = rpc.sendCount + 2;
    const send = page.getByRole("button", { name: "Sign all and send" });
    await expect(send).toBeEnabled({ timeout: 5000 });
    await send.click();
    await expect(page.getByRole("alert")).toContainText(
      "Stopped at transaction 2: The RPC server could not be reached or is not answering.",
    );
    await expect(page.getByRole("alert").locator("[lang=en]")).toHaveText("HTTP 503 Service Unavailable");
    const paid = recipients.filter((r) => (rpc.svm.getBalance(r) ?? 0n) > 0n).length;
    expect(paid).toBeGreaterThan(0);
    expect(paid).toBeLessThan(30);
  });

  await test.step("reload, resume, and every recipient is paid exactly once", async () => {
    await page.reload();
    await hydrated(page);
    await expect(page.getByTestId("wallet-address")).toHaveAttribute("title", owner);
    const prompts = await page.evaluate(() => (window as unknown as { __walletPrompts?: number }).__walletPrompts ?? 0);
    await page.getByRole("button", { name: "Resume it" }).click();
    await expect(page.getByTestId("job-paid")).toHaveText("Paid: 30 of 30 recipients.");
    // Resuming sent the same signed bytes again: the wallet was not asked to sign anything.
    expect(await page.evaluate(() => (window as unknown as { __walletPrompts?: number }).__walletPrompts ?? 0)).toBe(
      prompts,
    );
    for (const r of recipients) expect(rpc.svm.getBalance(r)).toBe(10_000_000n);
    await expect(page.getByTestId("resume")).toHaveCount(0);
  });
});

test("each /solana page starts with its own heading and purpose, before the tools and the network", async ({
  page,
}) => {
  for (const [path, title] of [
    ["/en/solana", "Solana wallet tools"],
    ["/en/solana/closeToken", "Close token accounts"],
    ["/zh/solana/PhantomWallet", "Phantom 钱包"],
  ] as const) {
    await page.goto(path);
    const headings = page.locator("main").getByRole("heading");
    await expect(headings.first()).toHaveText(title);
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    // In document order: the heading, then the tools' tabs and the network picker.
    const order = await page.evaluate(() => {
      const h1 = document.querySelector("main h1");
      const picker = document.querySelector("main form select");
      return h1 && picker ? h1.compareDocumentPosition(picker) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
    });
    expect(order, path).toBeTruthy();
  }
});

test("the WalletConnect page explains how to enable it; the shell passes axe in the dark theme", async ({ page }) => {
  await page.goto("/zh/solana/WalletConnect");
  await expect(page.getByTestId("wc-state")).toContainText("WALLETCONNECT_PROJECT_ID");
  await axe(page, "/zh/solana/WalletConnect");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/en/solana");
  await expect(page.locator("html")).toHaveClass(/dark/);
  await axe(page, "/en/solana (dark)");
});

test("a stored custom RPC whose cookie is gone reloads the page once, then reaches the RPC", async ({ page }) => {
  const holder = { ...makeWallet(), name: "Phantom" };
  rpc.svm.airdrop(holder.address as Address, lamports(3_000_000_000n));
  await openOnTestRpc(page, holder, "/en/solana/PhantomWallet");
  // The browser keeps the choice but loses the cookie the server widens connect-src by.
  await page.context().clearCookies({ name: RPC_COOKIE });
  const documents: string[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "document")
      documents.push(response.headers()["content-security-policy"] ?? "");
  });
  await page.reload();
  await expect(page.getByTestId("rpc-url")).toHaveText(rpc.url);
  await hydrated(page);
  // The first document could not reach the RPC; the one it reloaded into can.
  expect(documents).toHaveLength(2);
  expect(documents[0]).not.toContain(rpc.url.replace(/\/$/, ""));
  expect(documents[1]).toContain(rpc.url.replace(/\/$/, ""));
  await page.getByRole("region", { name: "Phantom wallet" }).getByRole("button", { name: "Connect Phantom" }).click();
  await expect(page.getByTestId("sol-balance")).toHaveText("SOL: 3 SOL");
});

test("Phantom: balances, a signed message checked in the page, and a SOL payment", async ({ page }) => {
  test.setTimeout(ceiling(60_000));
  const phantom = { ...makeWallet(), name: "Phantom" };
  rpc.svm.airdrop(phantom.address as Address, lamports(2_000_000_000n));
  rpc.addTokenAccount(randomAddress(), { mint: randomAddress(), owner: phantom.address as Address, amount: 42n });
  await openOnTestRpc(page, phantom, "/en/solana/PhantomWallet");
  await expect(page.getByTestId("rpc-url")).toHaveText(rpc.url);
  await page.getByRole("region", { name: "Phantom wallet" }).getByRole("button", { name: "Connect Phantom" }).click();
  await expect(page.getByTestId("sol-balance")).toHaveText("SOL: 2 SOL");
  await expect(page.getByTestId("token-balances")).toContainText("42");

  await page.getByRole("textbox", { name: "Message" }).fill("hello inkwell");
  await page.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(page.getByText("The signature is valid (checked in this browser)")).toBeVisible();

  const to = walletAddress();
  await page.getByRole("textbox", { name: "Recipient address" }).fill(to);
  await page.getByRole("textbox", { name: "Amount (SOL)" }).fill("0.5");
  await page.getByRole("button", { name: "Simulate, sign and send" }).click();
  await expect(page.getByTestId("tx-list").locator("li[data-state=confirmed]")).toHaveCount(1);
  await expect(page.getByText("Network fee: 0.000005 SOL")).toBeVisible();
  await expect(page.getByTestId("tx-list").getByRole("link")).toHaveAttribute("href", /explorer\.solana\.com\/tx\//);
  expect(rpc.svm.getBalance(to)).toBe(500_000_000n);
  await axe(page, "/en/solana/PhantomWallet");
});

test("failures read in the page's language, with the raw cause kept as English details", async ({ page }) => {
  test.setTimeout(ceiling(60_000));
  const phantom = { ...makeWallet(), name: "Phantom" };
  rpc.svm.airdrop(phantom.address as Address, lamports(100_000_000n));
  await openOnTestRpc(page, phantom, "/zh/solana/PhantomWallet");
  await page.getByRole("region", { name: "Phantom 钱包" }).getByRole("button", { name: "连接 Phantom" }).click();
  await expect(page.getByTestId("sol-balance")).toContainText("0.1 SOL");
  const sends = rpc.sendCount;
  await page.getByRole("textbox", { name: "收款地址" }).fill(walletAddress());
  await page.getByRole("textbox", { name: "金额（SOL）" }).fill("5");
  await page.getByRole("button", { name: "模拟、签名并发送" }).click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("模拟失败，没有签名任何交易：钱包中的 SOL 不足以完成这笔转账。");
  await expect(alert).toContainText("详情：");
  const details = alert.locator("[lang=en]");
  await expect(details).toContainText('{"InstructionError":[0,{"Custom":1}]}');
  await expect(details).toContainText("Transfer: insufficient lamports");
  expect(rpc.sendCount).toBe(sends);
  await axe(page, "/zh/solana/PhantomWallet (failure)");

  // The node refuses the signed transaction: the transaction shows the refusal and why.
  rpc.refuseSignature = true;
  await page.getByRole("textbox", { name: "金额（SOL）" }).fill("0.01");
  await page.getByRole("button", { name: "模拟、签名并发送" }).click();
  await expect(page.getByTestId("tx-list").locator("li[data-state=failed]")).toContainText(
    "网络拒绝了签名：钱包用另一个账户签名，或改动了交易。",
  );
  await expect(page.getByTestId("tx-list").locator("li[data-state=signing]")).toHaveCount(0);
  await expect(page.getByRole("alert")).toContainText("网络拒绝了签名");
});

test("batch-send a token, creating the recipients' token accounts", async ({ page }) => {
  test.setTimeout(ceiling(60_000));
  const sender = { ...makeWallet(), name: "Token Wallet" };
  const senderAddress = sender.address as Address;
  const mint = randomAddress();
  rpc.svm.airdrop(senderAddress, lamports(1_000_000_000n));
  rpc.addMint(mint, { decimals: 2, supply: 100_000n });
  const [source] = await findAssociatedTokenPda({ owner: senderAddress, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  rpc.addTokenAccount(source, { mint, owner: senderAddress, amount: 100_000n });
  const recipients = Array.from({ length: 5 }, () => walletAddress());
  await rpc.addMetaplexMetadata(mint, { name: "Inkwell Coin", symbol: "INK" });

  await openOnTestRpc(page, sender, "/en/solana/transferBatch");
  await page.getByRole("button", { name: "Connect Token Wallet" }).click();
  await page.getByRole("radio", { name: "A token" }).check();
  const picker = page.getByRole("combobox", { name: "Token from your wallet" });
  // 100,000 base units of a 2-decimal mint, named by its Metaplex metadata account.
  await expect(picker.locator(`option[value="${mint}"]`)).toHaveText(
    `Inkwell Coin (INK) · ${shortAddress(mint, 6)} — 1,000`,
  );
  await picker.selectOption(mint);
  await page
    .getByRole("textbox", { name: "Recipients (address,amount per line)" })
    .fill(["address,amount", ...recipients.map((r, i) => `${r},${i + 1}.25`), "not-an-address,1"].join("\n"));
  await page.getByRole("button", { name: "Check the list" }).click();
  await expect(page.getByTestId("row-errors")).toContainText(
    "Line 7: The address contains characters that are not base58.",
  );
  await expect(page.getByRole("button", { name: "Sign all and send" })).toBeDisabled();
  await page
    .getByRole("textbox", { name: "Recipients (address,amount per line)" })
    .fill(recipients.map((r, i) => `${r},${i + 1}.25`).join("\n"));
  await page.getByRole("button", { name: "Check the list" }).click();
  await expect(page.getByTestId("rows-valid")).toHaveText("Valid rows: 5 of 5.");
  await expect(page.getByTestId("cost")).toContainText("Rent for new token accounts");
  await page.getByRole("button", { name: "Sign all and send" }).click();
  await expect(page.getByTestId("job-paid")).toHaveText("Paid: 5 of 5 recipients.");
  for (const [i, r] of recipients.entries()) {
    const [ata] = await findAssociatedTokenPda({ owner: r, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const account = rpc.svm.getAccount(ata);
    expect(account.exists).toBe(true);
    if (account.exists) expect(getTokenDecoder().decode(account.data).amount).toBe(BigInt((i + 1) * 100 + 25));
  }
});

test("batch-send a Token-2022 token with decimals, to recipients with and without token accounts", async ({ page }) => {
  test.setTimeout(ceiling(60_000));
  const program = TOKEN_2022_PROGRAM_ADDRESS;
  const sender = { ...makeWallet(), name: "Token-2022 Wallet" };
  const senderAddress = sender.address as Address;
  const mint = randomAddress();
  rpc.svm.airdrop(senderAddress, lamports(1_000_000_000n));
  rpc.addMint(mint, { decimals: 6, supply: 1_000_000_000n, program });
  const [source] = await findAssociatedTokenPda({ owner: senderAddress, mint, tokenProgram: program });
  rpc.addTokenAccount(source, { mint, owner: senderAddress, amount: 1_000_000_000n, program });
  const recipients = Array.from({ length: 4 }, () => walletAddress());
  const atas = await Promise.all(
    recipients.map(async (owner) => (await findAssociatedTokenPda({ owner, mint, tokenProgram: program }))[0]),
  );
  // The first two already hold an account (one with a balance); the last two get one created.
  rpc.addTokenAccount(atas[0] as Address, { mint, owner: recipients[0] as Address, amount: 0n, program });
  rpc.addTokenAccount(atas[1] as Address, { mint, owner: recipients[1] as Address, amount: 7n, program });
  const amounts = ["1.5", "0.000001", "12.345678", "3"];
  const expected = [1_500_000n, 7n + 1n, 12_345_678n, 3_000_000n];

  await openOnTestRpc(page, sender, "/en/solana/transferBatch");
  await page.getByRole("button", { name: "Connect Token-2022 Wallet" }).click();
  await page.getByRole("radio", { name: "A token" }).check();
  await page.getByRole("textbox", { name: "or the token's mint address" }).fill(mint);
  await page
    .getByRole("textbox", { name: "Recipients (address,amount per line)" })
    .fill(recipients.map((r, i) => `${r},${amounts[i]}`).join("\n"));
  await page.getByRole("button", { name: "Check the list" }).click();
  await expect(page.getByTestId("rows-valid")).toHaveText("Valid rows: 4 of 4.");
  // Two new Token-2022 accounts (170 bytes with the immutable-owner extension) are paid for.
  const rent = rpc.svm.minimumBalanceForRentExemption(170n);
  await expect(page.getByTestId("cost")).toContainText(`Rent for new token accounts: ${Number(2n * rent) / 1e9} SOL`);
  await expect(page.getByTestId("cost")).toContainText("Total to send: 16.845679");
  await page.getByRole("button", { name: "Sign all and send" }).click();
  await expect(page.getByTestId("job-paid")).toHaveText("Paid: 4 of 4 recipients.");
  for (const [i, ata] of atas.entries()) {
    const account = rpc.svm.getAccount(ata);
    expect(account.exists).toBe(true);
    if (!account.exists) continue;
    expect(account.programAddress).toBe(program);
    const token = getTokenDecoder().decode(account.data.subarray(0, 165));
    expect(token.owner).toBe(recipients[i]);
    expect(token.amount).toBe(expected[i]);
  }
  const sourceAccount = rpc.svm.getAccount(source);
  expect(sourceAccount.exists && getTokenDecoder().decode(sourceAccount.data.subarray(0, 165)).amount).toBe(
    1_000_000_000n - 16_845_679n,
  );
});

test("a SOL batch, then a token batch in the same page view: both deliver, each with its own rows", async ({
  page,
}) => {
  test.setTimeout(ceiling(90_000));
  const sender = { ...makeWallet(), name: "Two Batch Wallet" };
  const senderAddress = sender.address as Address;
  const mint = randomAddress();
  rpc.svm.airdrop(senderAddress, lamports(2_000_000_000n));
  rpc.addMint(mint, { decimals: 0, supply: 1_000n });
  const [source] = await findAssociatedTokenPda({ owner: senderAddress, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  rpc.addTokenAccount(source, { mint, owner: senderAddress, amount: 1_000n });
  const solRecipients = Array.from({ length: 5 }, () => walletAddress());
  const tokenRecipients = Array.from({ length: 3 }, () => walletAddress());
  const list = page.getByRole("textbox", { name: "Recipients (address,amount per line)" });

  await openOnTestRpc(page, sender, "/en/solana/transferBatch");
  await page.getByRole("button", { name: "Connect Two Batch Wallet" }).click();
  await list.fill(solRecipients.map((r) => `${r},0.01`).join("\n"));
  await page.getByRole("button", { name: "Check the list" }).click();
  // A faster level raises the priority fee shown, and the SOL needed with it, before signing.
  const normalNeeded = lamportsIn((await page.getByTestId("cost-needed").textContent()) ?? "");
  await page.getByRole("radio", { name: /^Fast \(10,000 micro-lamports per unit\)$/ }).check();
  await expect(page.getByTestId("cost-needed")).not.toHaveText(`SOL needed: ${Number(normalNeeded) / 1e9} SOL`);
  const needed = lamportsIn((await page.getByTestId("cost-needed").textContent()) ?? "");
  expect(needed).toBeGreaterThan(normalNeeded);
  const sentBefore = rpc.sentBudgets.length;
  const before = rpc.svm.getBalance(senderAddress) ?? 0n;
  await page.getByRole("button", { name: "Sign all and send" }).click();
  await expect(page.getByTestId("job-paid")).toHaveText("Paid: 5 of 5 recipients.");
  for (const r of solRecipients) expect(rpc.svm.getBalance(r)).toBe(10_000_000n);
  // What was shown is what was paid, and every transaction carried its limit and the price.
  expect(before - (rpc.svm.getBalance(senderAddress) ?? 0n)).toBe(needed);
  const sent = rpc.sentBudgets.slice(sentBefore);
  expect(sent.length).toBeGreaterThan(0);
  for (const budget of sent) {
    expect(budget.unitPrice).toBe(10_000n);
    expect(budget.unitLimit).toBeGreaterThan(0);
    expect(budget.unitLimit).toBeLessThan(200_000);
  }

  // The defect this guards: the new list's rows showed as "paid" and nothing was sent.
  await page.getByRole("radio", { name: "A token" }).check();
  await expect(page.getByTestId("job")).toHaveCount(0);
  await page.getByRole("combobox", { name: "Token from your wallet" }).selectOption(mint);
  await list.fill(tokenRecipients.map((r) => `${r},7`).join("\n"));
  await page.getByRole("button", { name: "Check the list" }).click();
  await expect(page.getByTestId("rows-valid")).toHaveText("Valid rows: 3 of 3.");
  await expect(page.getByTestId("rows").locator("tbody tr[data-status=confirmed]")).toHaveCount(0);
  await expect(page.getByTestId("rows").locator("tbody tr")).toHaveCount(3);
  await expect(page.getByTestId("past-batches")).toContainText("SOL: paid 5 of 5 recipients.");
  await expect(page.getByTestId("past-batches").getByRole("link", { name: "Download results (CSV)" })).toHaveCount(1);
  const send = page.getByRole("button", { name: "Sign all and send" });
  await expect(send).toBeEnabled();
  await send.click();
  await expect(page.getByTestId("job-paid")).toHaveText("Paid: 3 of 3 recipients.");
  await expect(page.getByTestId("rows").locator("tbody tr[data-status=confirmed]")).toHaveCount(3);
  for (const r of tokenRecipients) {
    const [ata] = await findAssociatedTokenPda({ owner: r, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const account = rpc.svm.getAccount(ata);
    expect(account.exists && getTokenDecoder().decode(account.data).amount).toBe(7n);
  }

  // "Start a new batch" ends the finished one and clears the list; both earlier results stay.
  await page.getByRole("button", { name: "Start a new batch" }).click();
  await expect(list).toHaveValue("");
  await expect(page.getByTestId("job")).toHaveCount(0);
  await expect(page.getByTestId("past-batches").locator("li")).toHaveCount(2);
  await axe(page, "/en/solana/transferBatch (after two batches)");
});
