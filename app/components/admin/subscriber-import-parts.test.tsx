import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import "../../lib/i18n/admin-strings.ts";
import { createI18n } from "../../lib/i18n/i18n.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import type { ImportJobView } from "../../lib/subscriber-import.ts";
import { ImportJobs } from "./subscriber-import-parts.tsx";

const job = (extra: Partial<ImportJobView>): ImportJobView => ({
  id: "imp1",
  status: "running",
  fileName: "members.csv",
  actorEmail: "owner@example.test",
  createdAt: "2026-11-26T12:00:00.000Z",
  finishedAt: null,
  total: 1000,
  processed: 250,
  imported: 240,
  existing: 10,
  duplicates: 2,
  notSubscribed: 0,
  invalid: 1,
  problems: [{ line: 7, reason: "emailInvalid", value: "nope" }],
  ...extra,
});

const render = (jobs: ImportJobView[], locale: Locale = "en") =>
  renderToString(
    <I18nextProvider i18n={createI18n(locale)}>
      <ImportJobs jobs={jobs} locale={locale} />
    </I18nextProvider>,
  ).replaceAll("<!-- -->", "");

describe("ImportJobs", () => {
  it("shows a running import's progress, with the reload hint for pages without JavaScript", () => {
    const html = render([job({})]);
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="25"');
    expect(html).toContain("250 of 1000 rows (25%)");
    expect(html).toContain("Importing");
    expect(html).toContain("<noscript>");
    expect(html).not.toContain("Import finished");
  });

  it("shows a finished import's report with its invalid lines, and no bar", () => {
    const html = render([
      job({ status: "done", processed: 1000, imported: 990, finishedAt: "2026-11-26T12:00:05.000Z" }),
    ]);
    expect(html).not.toContain('role="progressbar"');
    expect(html).not.toContain("<noscript>");
    expect(html).toContain("Import finished");
    expect(html).toContain("Imported 990 subscribers.");
    expect(html).toContain("Skipped 10 addresses already on the list.");
    expect(html).toContain("Skipped 2 addresses repeated within the file.");
    expect(html).toContain("Line 7: “nope” is not a valid e-mail address.");
  });

  it("says how far a failed import got, in Chinese too", () => {
    const html = render([job({ status: "failed" })], "zh");
    expect(html).toContain("因错误而停止");
    expect(html).toContain("已处理 250 / 1000 行");
  });

  it("shows nothing before the first import", () => {
    expect(render([])).toBe("");
  });
});
