import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import "../../lib/i18n/admin-strings.ts";
import { createI18n } from "../../lib/i18n/i18n.ts";
import { acceptsFile, FilePicker } from "./file-picker.tsx";

function render(locale: "en" | "zh"): string {
  return renderToString(
    <I18nextProvider i18n={createI18n(locale)}>
      <FilePicker id="f" label={locale === "en" ? "CSV file" : "CSV 文件"} hint="Up to 1 MB" accept=".csv" required />
    </I18nextProvider>,
  );
}

describe("FilePicker", () => {
  it("is a real, labelled file input, its zone in the page's language and hidden from screen readers", () => {
    const html = render("zh");
    expect(html).toMatch(/<label for="f"[^>]*>CSV 文件<\/label>/);
    const input = /<input [^>]*>/.exec(html)?.[0] ?? "";
    for (const attribute of ['id="f"', 'name="file"', 'type="file"', 'accept=".csv"', 'required=""']) {
      expect(input).toContain(attribute);
    }
    expect(input).toContain('aria-describedby="f-hint"');
    expect(html).toMatch(/<div aria-hidden="true"[^>]*>.*选择文件.*未选择文件，也可以把文件拖到这里/);
    // Transparent over the zone only where script runs; otherwise the browser's own input shows.
    expect(input).toMatch(/class="peer [^"]*\[\.js_&amp;\]:opacity-0/);
    expect(html).toMatch(/aria-hidden="true" [^>]*class="hidden [^"]*\[\.js_&amp;\]:flex/);
    expect(render("en")).toContain("No file chosen — or drag one here");
  });

  it("reads an accept list of extensions, types and type families", () => {
    const csv = ".csv,text/csv";
    expect(acceptsFile(csv, { name: "members.CSV", type: "" })).toBe(true);
    expect(acceptsFile(csv, { name: "export", type: "text/csv" })).toBe(true);
    expect(acceptsFile(csv, { name: "notes.txt", type: "text/plain" })).toBe(false);
    expect(acceptsFile("image/*", { name: "x.heic", type: "image/heic" })).toBe(true);
    expect(acceptsFile("image/*", { name: "x.pdf", type: "application/pdf" })).toBe(false);
    expect(acceptsFile(undefined, { name: "anything.bin", type: "" })).toBe(true);
    expect(acceptsFile("", { name: "anything.bin", type: "" })).toBe(true);
  });
});
