// `npm run test:e2e`: the browser tests against the production build in Chromium.
// Chromium comes from CHROMIUM_PATH, then Debian's headless shell, then /usr/bin/chromium,
// then Playwright's own
// browser, which is installed (and said so) when none is found. Never skipped.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import type { E2EServer } from "../tests/e2e/servers.ts";
import { startMailCapture } from "../tests/setup/mail-capture.ts";
import { startOidcProvider } from "../tests/setup/oidc-provider.ts";
import { freePort } from "../tests/setup/server-process.ts";
import { ensureBuild } from "./build-if-stale.js";

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
  // The headless shell (Debian's chromium-headless-shell, the build Playwright itself uses
  // for headless runs) is the same engine without the full browser's windowing and
  // extra processes: the layout sweep took a fifth less CPU in it, the axe pages a third.
  for (const candidate of ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"]) {
    if (existsSync(candidate)) return candidate;
  }
  const own = await playwrightChromium();
  if (own) return own;
  console.log(
    "e2e: no Chromium found (CHROMIUM_PATH, /usr/bin/chromium-headless-shell, /usr/bin/chromium); installing Playwright's Chromium…",
  );
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

/**
 * How many servers (and Playwright workers, one per server) run the suite:
 * E2E_SERVERS, else for the whole suite two per core, at most four, else 1. A
 * browser test spends most of its time waiting (on a page to hydrate, a mail, a
 * poll, a toast's timer): two workers on two cores kept the machine a third busy,
 * four ran the suite in about two thirds of the time. Each worker only ever talks to
 * its own server, so tests see the same one-writer-at-a-time database they always did.
 */
function serverCount(args: string[]): number {
  const fromEnv = Number(process.env.E2E_SERVERS);
  if (Number.isInteger(fromEnv) && fromEnv >= 1) return fromEnv;
  const wholeSuite = !args.some((a) => !a.startsWith("-"));
  return wholeSuite ? Math.max(1, Math.min(4, availableParallelism() * 2)) : 1;
}

async function main(): Promise<number> {
  ensureBuild({ quiet: true });
  const chromium = await findChromium();
  const args = process.argv.slice(2);
  const servers: E2EServer[] = [];
  for (let i = 0; i < serverCount(args); i++) {
    servers.push({ port: await freePort(), dataDir: mkdtempSync(path.join(tmpdir(), "inkwell-e2e-")) });
  }
  // Mail from the servers under test goes to a local SMTP server the tests can read.
  const mail = await startMailCapture();
  // "Test OpenID" sign-in goes to a local OpenID Connect provider; better-auth's
  // callback for a generic provider is the core /callback/:id endpoint.
  const oidc = await startOidcProvider({
    redirectUris: servers.map((s) => `http://127.0.0.1:${s.port}/api/auth/callback/oidc-test`),
  }).catch(async (error: unknown) => {
    await mail.close();
    throw error;
  });
  console.log(
    `e2e: Chromium ${chromium}, ${servers.length} server(s) on ${servers.map((s) => `127.0.0.1:${s.port}`).join(", ")}, mail at ${mail.smtpUrl}, OpenID provider at ${oidc.issuer}`,
  );
  try {
    const child = spawn(path.join(root, "node_modules", ".bin", "playwright"), ["test", ...args], {
      cwd: root,
      stdio: "inherit",
      env: {
        ...process.env,
        E2E_CHROMIUM: chromium,
        E2E_SERVER_LIST: JSON.stringify(servers),
        E2E_SMTP_URL: mail.smtpUrl,
        E2E_MAIL_API: mail.apiUrl,
        E2E_OIDC_DISCOVERY_URL: oidc.discoveryUrl,
        E2E_OIDC_CLIENT_ID: oidc.clientId,
        E2E_OIDC_CLIENT_SECRET: oidc.clientSecret,
      },
    });
    return await new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
  } finally {
    await oidc.close();
    await mail.close();
    for (const server of servers) rmSync(server.dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) process.exitCode = await main();
