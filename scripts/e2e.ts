// `npm run test:e2e`: the browser tests against the production build in Chromium.
// Chromium comes from CHROMIUM_PATH, then /usr/bin/chromium, then Playwright's own
// browser, which is installed (and said so) when none is found. Never skipped.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { startMailCapture } from "../tests/setup/mail-capture.ts";
import { startOidcProvider } from "../tests/setup/oidc-provider.ts";
import { freePort } from "../tests/setup/server-process.ts";
import { ensureBuild } from "./build-if-stale.ts";

const root = path.resolve(import.meta.dirname, "..");

async function playwrightChromium(): Promise<string | null> {
  try {
    const { chromium } = await import("@playwright/test");
    const p = chromium.executablePath();
    return p && existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

export async function findChromium(): Promise<string> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH points at ${fromEnv}, which does not exist`);
    return fromEnv;
  }
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  const own = await playwrightChromium();
  if (own) return own;
  console.log("e2e: no Chromium found (CHROMIUM_PATH, /usr/bin/chromium); installing Playwright's Chromium…");
  const install = spawnSync(path.join(root, "node_modules", ".bin", "playwright"), ["install", "chromium"], {
    stdio: "inherit",
  });
  const installed = install.status === 0 ? await playwrightChromium() : null;
  if (!installed) {
    throw new Error(
      "no Chromium available and Playwright could not install one: install Debian's chromium or set CHROMIUM_PATH",
    );
  }
  return installed;
}

/** One Playwright run with its own server, data directory, mail catcher and OpenID provider. */
async function runShard(chromium: string, args: string[], shard: { index: number; total: number }): Promise<number> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "inkwell-e2e-"));
  // Mail from the server under test goes to a local SMTP server the tests can read.
  const mail = await startMailCapture();
  // "Test OpenID" sign-in goes to a local OpenID Connect provider; better-auth's
  // callback for a generic provider is the core /callback/:id endpoint.
  const oidc = await startOidcProvider({
    redirectUris: [`http://127.0.0.1:${port}/api/auth/callback/oidc-test`],
  }).catch(async (error: unknown) => {
    await mail.close();
    throw error;
  });
  const label = shard.total > 1 ? `[${shard.index}/${shard.total}] ` : "";
  console.log(
    `${label}e2e: Chromium ${chromium}, server on 127.0.0.1:${port}, data in ${dataDir}, mail at ${mail.smtpUrl}, OpenID provider at ${oidc.issuer}`,
  );
  try {
    const shardArgs = shard.total > 1 ? [`--shard=${shard.index}/${shard.total}`] : [];
    const child = spawn(path.join(root, "node_modules", ".bin", "playwright"), ["test", ...shardArgs, ...args], {
      cwd: root,
      stdio: shard.total > 1 ? ["ignore", "pipe", "pipe"] : "inherit",
      env: {
        ...process.env,
        E2E_CHROMIUM: chromium,
        E2E_PORT: String(port),
        E2E_DATA_DIR: dataDir,
        E2E_SMTP_URL: mail.smtpUrl,
        E2E_MAIL_API: mail.apiUrl,
        E2E_OIDC_DISCOVERY_URL: oidc.discoveryUrl,
        E2E_OIDC_CLIENT_ID: oidc.clientId,
        E2E_OIDC_CLIENT_SECRET: oidc.clientSecret,
      },
    });
    // Several shards at once: each line carries its shard's label.
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ] as const) {
      if (from) createInterface({ input: from }).on("line", (line) => to.write(`${label}${line}\n`));
    }
    return await new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
  } finally {
    await oidc.close();
    await mail.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * How many Playwright runs go side by side, each with its own server: E2E_SHARDS,
 * else 2 for the whole suite on a machine with two or more cores (one run keeps
 * a core mostly idle, waiting on the browser and the server in turn), else 1.
 */
function shardCount(args: string[]): number {
  const fromEnv = Number(process.env.E2E_SHARDS);
  if (Number.isInteger(fromEnv) && fromEnv >= 1) return fromEnv;
  const wholeSuite = !args.some((a) => !a.startsWith("-"));
  return wholeSuite && availableParallelism() >= 2 ? 2 : 1;
}

async function main(): Promise<number> {
  ensureBuild({ quiet: true });
  const chromium = await findChromium();
  const args = process.argv.slice(2);
  const total = shardCount(args);
  const codes = await Promise.all(
    Array.from({ length: total }, (_, i) => runShard(chromium, args, { index: i + 1, total })),
  );
  if (total > 1) console.log(`e2e: shards finished with exit codes ${codes.join(", ")}`);
  return codes.find((code) => code !== 0) ?? 0;
}

if (import.meta.main) process.exitCode = await main();
