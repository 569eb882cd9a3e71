import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { type Address, getBase58Decoder, lamports } from "@solana/kit";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { startTestRpc, type TestRpc } from "../setup/solana-rpc.ts";
import { startTestRelay, type TestRelay } from "../setup/wc-relay.ts";
import { startTestWcWallet, type TestWcWallet } from "../setup/wc-wallet.ts";
import { ceiling } from "./ceilings.ts";
import { expect, test } from "./fixtures.ts";

// /solana/WalletConnect end to end, offline: a server of its own with a project id and the local
// relay (tests/setup/wc-relay.ts), the mobile wallet played by the sign client in Node
// (tests/setup/wc-wallet.ts), and the litesvm RPC as the site's default network. The test reads
// the pairing URI from the page, as a phone would from the QR code.

const projectId = "inkwelle2e000001";
const b58 = getBase58Decoder();
const randomAddress = () => b58.decode(randomBytes(32)) as Address;

let rpc: TestRpc;
let relay: TestRelay;
let wallet: TestWcWallet;
let server: ServerProcess;

test.beforeAll(async () => {
  rpc = await startTestRpc();
  relay = await startTestRelay();
  wallet = await startTestWcWallet({ relayUrl: relay.url, projectId });
  rpc.svm.airdrop(wallet.address, lamports(3_000_000_000n));
  rpc.addTokenAccount(randomAddress(), { mint: randomAddress(), owner: wallet.address, amount: 42n });
  server = await startServer({
    DATA_DIR: tempDataDir(),
    LOG_REQUESTS: "false",
    LOG_LEVEL: "error",
    PUBLIC_URL: "http://127.0.0.1",
    SOLANA_RPC_URL: rpc.url,
    WALLETCONNECT_PROJECT_ID: projectId,
    WALLETCONNECT_RELAY_URL: relay.url,
  });
});

test.afterAll(async () => {
  await server?.stop();
  await wallet?.close();
  await relay?.close();
  await rpc?.close();
});

async function axe(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, label).toEqual([]);
}

/**
 * Before each proposal and request the sign client asks WalletConnect Verify (a frame on its
 * cloud) to attest this origin; offline that frame never answers and the client gives up after
 * 5 s, so steps that wait for the phone allow for it.
 */
const PHONE = { timeout: 20_000 };

async function pairingUri(page: Page): Promise<string> {
  const uri = page.getByTestId("wc-uri");
  await expect(uri).toHaveText(/^wc:[0-9a-f]{64}@2\?/, PHONE);
  return (await uri.textContent()) ?? "";
}

test("WalletConnect: pair by QR link (declined, then approved), balances, sign, send SOL, session end", async ({
  page,
}) => {
  test.setTimeout(ceiling(150_000));

  await test.step("the page allows the relay, shows a QR code and the link; the wallet declines", async () => {
    const response = await page.goto(`${server.url}/zh/solana/WalletConnect`);
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain(new URL(relay.url).origin);
    expect(csp).toContain("frame-src https://verify.walletconnect.org");
    await page.getByRole("button", { name: "连接手机钱包" }).click();
    const uri = await pairingUri(page);
    await expect(page.getByRole("img", { name: "用于配对手机钱包的二维码" })).toBeVisible();
    await expect(page.getByRole("link", { name: "在钱包中打开" })).toHaveAttribute("href", uri);
    await axe(page, "/zh/solana/WalletConnect (pairing)");
    wallet.rejectNext = true;
    await wallet.pair(uri);
    await expect(page.getByRole("alert")).toHaveText("钱包拒绝了连接。", PHONE);
  });

  await test.step("retry gives a new code; the wallet approves and the page shows its account", async () => {
    const declined = await page.getByTestId("wc-uri").count();
    expect(declined).toBe(0);
    await page.getByRole("button", { name: "重试" }).click();
    const uri = await pairingUri(page);
    await wallet.pair(uri);
    await expect(page.getByTestId("wc-state")).toContainText("已连接到 Test Mobile Wallet。", PHONE);
    await expect(page.getByTestId("sol-balance")).toHaveText("SOL： 3 SOL");
  });

  await test.step("the session comes back after a reload, in English", async () => {
    await page.goto(`${server.url}/en/solana/WalletConnect`);
    await expect(page.getByTestId("wc-state")).toContainText("Connected to Test Mobile Wallet.");
    await expect(page.getByTestId("wc-state")).toContainText(wallet.address);
    await expect(page.getByTestId("sol-balance")).toHaveText("SOL: 3 SOL");
    await expect(page.getByTestId("token-balances")).toContainText("42");
    await axe(page, "/en/solana/WalletConnect (connected)");
    // Away and back without a reload: the same client and session.
    await page.getByRole("link", { name: "Phantom wallet" }).first().click();
    await expect(page.getByRole("heading", { name: "Phantom wallet" })).toBeVisible();
    await page.getByRole("link", { name: "WalletConnect" }).first().click();
    await expect(page.getByTestId("wc-state")).toContainText("Connected to Test Mobile Wallet.");
  });

  await test.step("a message refused on the phone says so; signed, it verifies in the page", async () => {
    await page.getByRole("textbox", { name: "Message" }).fill("hello from the phone");
    wallet.refuseNextRequest = true;
    await page.getByRole("button", { name: "Sign", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "Stopped: You declined the request in your wallet. Details: User rejected.",
      PHONE,
    );
    await expect(page.getByRole("alert").locator("[lang=en]")).toHaveText("User rejected.");
    await page.getByRole("button", { name: "Sign", exact: true }).click();
    await expect(page.getByText("The signature is valid (checked in this browser)")).toBeVisible(PHONE);
    expect(wallet.answered.solana_signMessage).toBe(1);
  });

  await test.step("SOL sent through the phone lands with the exact balance change", async () => {
    const to = randomAddress();
    const before = rpc.svm.getBalance(wallet.address) ?? 0n;
    await page.getByRole("textbox", { name: "Recipient address" }).fill(to);
    await page.getByRole("textbox", { name: "Amount (SOL)" }).fill("0.25");
    await page.getByRole("button", { name: "Simulate, sign and send" }).click();
    await expect(page.getByTestId("tx-list").locator("li[data-state=confirmed]")).toHaveCount(1, PHONE);
    await expect(page.getByText("Network fee: 0.000005 SOL")).toBeVisible();
    await expect(page.getByTestId("tx-list").getByRole("link")).toHaveAttribute("href", /explorer\.solana\.com\/tx\//);
    expect(rpc.svm.getBalance(to)).toBe(250_000_000n);
    expect((rpc.svm.getBalance(wallet.address) ?? 0n) - before).toBe(-250_005_000n);
    expect(wallet.answered.solana_signTransaction).toBe(1);
    await expect(page.getByTestId("sol-balance")).toHaveText("SOL: 2.749995 SOL");
  });

  await test.step("the wallet ends the session; the page says so and pairs again", async () => {
    await wallet.disconnectAll();
    await expect(page.getByRole("alert")).toHaveText("The wallet ended the session.");
    await expect(page.getByTestId("sol-balance")).toHaveCount(0);
    await page.getByRole("button", { name: "Try again" }).click();
    await wallet.pair(await pairingUri(page));
    await expect(page.getByTestId("wc-state")).toContainText("Connected to Test Mobile Wallet.", PHONE);
    expect(wallet.sessions()).toHaveLength(1);
  });

  await test.step("disconnect ends the session on both sides; a reload stays disconnected", async () => {
    await page.getByTestId("wc-state").getByRole("button", { name: "Disconnect" }).click();
    await expect(page.getByRole("button", { name: "Connect a mobile wallet" })).toBeVisible();
    await expect.poll(() => wallet.sessions().length).toBe(0);
    await page.reload();
    await expect(page.getByRole("button", { name: "Connect a mobile wallet" })).toBeVisible();
    await expect(page.getByTestId("sol-balance")).toHaveCount(0);
  });
});
