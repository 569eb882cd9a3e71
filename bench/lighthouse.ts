// `npm run lighthouse`: seeds a small demo site into a temporary directory, starts
// the production server, and runs Lighthouse (mobile: its default form factor,
// screen and simulated throttling) on the home page and a post page, in English
// and under /zh, with the system Chromium (`--only` picks some of the four).
// Prints the four category scores per page and, for a score below target, the
// audits that cost points, then a table with the lab metrics; writes
// bench/results/lighthouse.json (and each page's whole report as
// lighthouse-<page>.report.json).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type LaunchedChrome, launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { ensureBuild, SERVER_ENTRY } from "../scripts/build-if-stale.js";
import { CHROMIUM_ARGS } from "../scripts/chromium.ts";
import { newestPostPath, pickPages, seed, serverEnv } from "./bench.ts";
import {
  auditedPages,
  belowTarget,
  CATEGORIES,
  formatPage,
  formatTable,
  type PageMetrics,
  type PageScores,
  pageMetrics,
  pageScores,
  parseOptions,
  TARGETS,
} from "./lighthouse-scores.ts";
import { repoRoot, startProcess } from "./process.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_FLAGS = ["--headless=new", ...CHROMIUM_ARGS];
const POSTS = 10;

interface LighthouseOutput {
  measuredAt: string;
  lighthouseVersion: string;
  userAgent: string;
  settings: { formFactor: string; throttlingMethod: string; screenWidth: number };
  loadAverage: number;
  pages: Record<string, { url: string; locale: string; scores: PageScores; metrics: PageMetrics; warnings: string[] }>;
}

async function main(argv: string[]): Promise<number> {
  let names: ReturnType<typeof parseOptions>["pages"];
  try {
    names = parseOptions(argv).pages;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 2;
  }
  ensureBuild({ quiet: true });
  const work = mkdtempSync(path.join(os.tmpdir(), "inkwell-lighthouse-"));
  const dataDir = path.join(work, "data");
  try {
    console.log(`seeding ${POSTS} posts`);
    seed(dataDir, POSTS);
    const { home, post } = await pickPages(dataDir);
    const pages = auditedPages({ home, post, postZh: await newestPostPath(dataDir, "zh") }, names);
    const server = await startProcess([SERVER_ENTRY], serverEnv(dataDir, true), { timeoutMs: 60_000 });
    const userDataDir = path.join(work, "chromium");
    mkdirSync(userDataDir);
    let chrome: LaunchedChrome | undefined;
    try {
      chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS, userDataDir, logLevel: "error" });
      const output: LighthouseOutput = {
        measuredAt: new Date().toISOString(),
        lighthouseVersion: "",
        userAgent: "",
        settings: { formFactor: "", throttlingMethod: "", screenWidth: 0 },
        loadAverage: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
        pages: {},
      };
      const outDir = path.join(repoRoot, "bench", "results");
      mkdirSync(outDir, { recursive: true });
      const lines: string[] = [];
      const rows: Parameters<typeof formatTable>[0] = [];
      let missed = 0;
      for (const { name, locale, path: pagePath } of pages) {
        const url = `${server.url}${pagePath}`;
        console.log(`lighthouse ${url}`);
        const result = await lighthouse(url, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: [...CATEGORIES],
        });
        if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
        const { lhr } = result;
        if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
        const scores = pageScores(lhr);
        const metrics = pageMetrics(lhr);
        missed += belowTarget(scores).length;
        output.lighthouseVersion = lhr.lighthouseVersion;
        output.userAgent = lhr.environment.hostUserAgent;
        output.settings = {
          formFactor: lhr.configSettings.formFactor,
          throttlingMethod: lhr.configSettings.throttlingMethod,
          screenWidth: lhr.configSettings.screenEmulation.width,
        };
        output.pages[name] = { url: pagePath, locale, scores, metrics, warnings: lhr.runWarnings };
        // The whole report too, for the details of a failing audit.
        writeFileSync(path.join(outDir, `lighthouse-${name}.report.json`), JSON.stringify(lhr));
        lines.push(...formatPage(name, pagePath, scores));
        rows.push({ name, scores, metrics });
      }
      const file = path.join(outDir, "lighthouse.json");
      writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
      console.log(
        `\nLighthouse ${output.lighthouseVersion}, ${output.settings.formFactor} (${output.settings.screenWidth} px, ` +
          `${output.settings.throttlingMethod} throttling), load average ${output.loadAverage}; targets ${CATEGORIES.map((c) => TARGETS[c]).join("/")}\n`,
      );
      for (const line of lines) console.log(line);
      console.log("");
      for (const line of formatTable(rows)) console.log(line);
      console.log(`\n${missed === 0 ? "every score on target" : `${missed} score(s) below target`}; wrote ${file}`);
      return 0;
    } finally {
      chrome?.kill();
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
