import { describe, expect, it } from "vitest";
import { emptyCounts } from "./core.server.ts";
import type { PostImportReport } from "./job/report.server.ts";
import { REPORT_FILES, reportJson, reportText } from "./report-file.server.ts";

const report: PostImportReport = {
  id: "imp1",
  kind: "ghost",
  label: "export.json",
  status: "done",
  createdAt: "2026-11-27T01:00:00.000Z",
  finishedAt: "2026-11-27T01:01:00.000Z",
  counts: { ...emptyCounts(), total: 3, imported: 2, failed: 1 },
  report: [
    { item: "Broken [a1]", outcome: "failed", reason: "ghostLexicalInvalid" },
    { item: "Odd\nname [a2]", outcome: "note", reason: "someFutureCode", detail: "line\r\nbreak" },
  ],
};

describe("import report files", () => {
  it("names the four files the admin page links to", () => {
    expect(Object.keys(REPORT_FILES).sort()).toEqual(["dry-run.json", "dry-run.txt", "report.json", "report.txt"]);
  });

  it("writes JSON with the stable codes and every count", () => {
    const v = JSON.parse(reportJson(report, "final"));
    expect(v).toMatchObject({ report: "final", id: "imp1", kind: "ghost", file: "export.json", status: "done" });
    expect(v.counts).toMatchObject({ total: 3, imported: 2, failed: 1, commentsAdded: 0 });
    expect(v.lines[0]).toEqual({ item: "Broken [a1]", outcome: "failed", reason: "ghostLexicalInvalid" });
    expect(JSON.parse(reportJson(report, "plan")).report).toBe("dry-run");
  });

  it("writes text in the admin's language, one line per report line", () => {
    const en = reportText(report, "final", "en");
    expect(en).toContain("Import report\n");
    expect(en).toContain("Status: done");
    expect(en).toContain("Posts imported: 2");
    expect(en).toContain("- Failed · Broken [a1]: the Lexical body does not parse");
    // An unknown code is shown as it is; line breaks from the export never start a new line.
    expect(en).toContain("- Note · Odd name [a2]: someFutureCode (line break)");
    const zh = reportText(report, "plan", "zh");
    expect(zh).toContain("导入：将会做什么（试运行）");
    expect(zh).toContain("Lexical 正文无法解析");
    expect(zh.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(2);
  });
});
