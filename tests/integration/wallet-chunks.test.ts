import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clientManifest } from "../setup/client-manifest.ts";
import { repoRoot } from "../setup/server-process.ts";

// Wallet code (Wallet Standard discovery, @solana/kit's RPC and transaction code) must load only
// on the /solana pages. This reads the production build: which chunks hold wallet code, and
// which chunks every other route (and the root layout every page renders) can reach, following
// static and dynamic imports. The HTML of blog pages is checked in page-weight.test.ts.

const assets = path.join(repoRoot, "build", "client", "assets");

const chunkText = new Map<string, string>();
function read(chunk: string): string {
  let text = chunkText.get(chunk);
  if (text === undefined) {
    text = readFileSync(path.join(assets, path.basename(chunk)), "utf8");
    chunkText.set(chunk, text);
  }
  return text;
}

/** Every chunk reachable from `start`, through `import … from "./x.js"` and `import("./x.js")`. */
function reachable(start: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = start.map((c) => `/assets/${path.basename(c)}`);
  while (queue.length > 0) {
    const chunk = queue.pop() as string;
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    for (const m of read(chunk).matchAll(/["'`](?:\.\/|\/assets\/)([\w.-]+\.js)["'`]/g)) {
      queue.push(`/assets/${m[1]}`);
    }
  }
  return seen;
}

/**
 * Strings only wallet code contains (feature names of the Wallet Standard and its registry
 * event), and a sentence of the "solana" strings, which load with the /solana routes too.
 */
const WALLET_MARKERS = [
  "solana:signTransaction",
  "standard:connect",
  "wallet-standard:register-wallet",
  "Solana transactions are irreversible",
];

function walletChunks(): Set<string> {
  const out = new Set<string>();
  for (const file of readdirSync(assets)) {
    if (!file.endsWith(".js")) continue;
    const chunk = `/assets/${file}`;
    if (WALLET_MARKERS.some((m) => read(chunk).includes(m))) out.add(chunk);
  }
  return out;
}

/** Strings only the WalletConnect sign client contains (its relay calls). */
const WALLETCONNECT_MARKERS = ["wc_proposeSession", "irn_batchSubscribe"];

function walletConnectChunks(): Set<string> {
  const out = new Set<string>();
  for (const file of readdirSync(assets)) {
    if (!file.endsWith(".js")) continue;
    const chunk = `/assets/${file}`;
    if (WALLETCONNECT_MARKERS.some((m) => read(chunk).includes(m))) out.add(chunk);
  }
  return out;
}

describe("wallet code stays on the /solana pages", () => {
  const manifest = clientManifest();
  const wallet = walletChunks();

  it("finds the wallet chunks, and the /solana layout loads them", () => {
    expect(wallet.size).toBeGreaterThan(0);
    const layout = Object.values(manifest.routes).find((r) => r.id === "routes/solana/layout");
    expect(layout, "the /solana layout route").toBeDefined();
    const fromLayout = reachable([layout?.module ?? "", ...(layout?.imports ?? [])]);
    expect([...wallet].some((c) => fromLayout.has(c))).toBe(true);
  });

  it("keeps wallet chunks out of the entry, the root layout and every other route", () => {
    const others = Object.values(manifest.routes).filter((r) => !r.id.startsWith("routes/solana/"));
    expect(others.map((r) => r.id)).toContain("root");
    expect(others.length).toBeGreaterThan(20);
    const checks: [string, string[]][] = [
      ["entry", [manifest.entry.module, ...manifest.entry.imports]],
      ...others.map((r): [string, string[]] => [r.id, [r.module, ...(r.imports ?? [])]]),
    ];
    for (const [id, start] of checks) {
      const leaked = [...reachable(start)].filter((c) => wallet.has(c));
      expect(leaked, `${id} reaches wallet code`).toEqual([]);
    }
  });

  it("keeps the WalletConnect client to the WalletConnect page, loaded on demand", () => {
    const wc = walletConnectChunks();
    expect(wc.size).toBeGreaterThan(0);
    const page = Object.values(manifest.routes).filter((r) => r.id.startsWith("routes/solana/wallet-connect"));
    expect(page.map((r) => r.id).sort()).toEqual([
      "routes/solana/wallet-connect",
      "routes/solana/wallet-connect-en",
      "routes/solana/wallet-connect-zh",
    ]);
    for (const route of page) {
      // Not among the route's static imports (modulepreloaded with the page), but reachable by import().
      expect((route.imports ?? []).filter((c) => wc.has(`/assets/${path.basename(c)}`))).toEqual([]);
      expect(
        [...reachable([route.module])].some((c) => wc.has(c)),
        route.id,
      ).toBe(true);
    }
    const others = Object.values(manifest.routes).filter((r) => !r.id.startsWith("routes/solana/wallet-connect"));
    expect(others.map((r) => r.id)).toContain("routes/solana/layout");
    for (const route of [{ id: "entry", module: manifest.entry.module, imports: manifest.entry.imports }, ...others]) {
      const leaked = [...reachable([route.module, ...(route.imports ?? [])])].filter((c) => wc.has(c));
      expect(leaked, `${route.id} reaches the WalletConnect client`).toEqual([]);
    }
  });
});
