import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { addressHeader, fillTemplate, headerValue, mailTemplate, quotedPrintable } from "./mime.server.ts";

const decodeQp = (encoded: string) =>
  Buffer.from(
    encoded
      .replace(/=\r\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");

describe("quoted-printable", () => {
  it("round-trips UTF-8, '=' and long lines, and keeps every line within 76 characters", () => {
    const text = `a=b ${"长".repeat(60)} ${"word ".repeat(40)}\ntrailing space \nend`;
    const encoded = quotedPrintable(text).toString("latin1");
    for (const line of encoded.split("\r\n")) expect(line.length).toBeLessThanOrEqual(76);
    expect(encoded).not.toMatch(/[ \t]\r\n/); // no space left at a line's end
    expect(decodeQp(encoded)).toBe(text.replace(/\n/g, "\r\n"));
  });

  it("ends an open piece in a soft break so pieces join with nothing between them", () => {
    const joined = Buffer.concat([quotedPrintable("first half ", true), quotedPrintable("second")]).toString("latin1");
    expect(decodeQp(joined)).toBe("first half second");
  });
});

describe("headers", () => {
  it("encodes non-ASCII values as encoded words that stay short", () => {
    const subject = headerValue("隔夜面包：慢慢发酵的面包，一整夜的等待与一个清晨的香气");
    expect(subject).toMatch(/^=\?UTF-8\?B\?/);
    for (const line of subject.split("\r\n")) expect(line.length).toBeLessThanOrEqual(78);
    expect(headerValue("Plain subject")).toBe("Plain subject");
    expect(headerValue("no\r\nInjected: header")).toBe("no Injected: header");
  });

  it("quotes or encodes a display name and keeps the address", () => {
    expect(addressHeader("Blog <blog@example.test>")).toBe('"Blog" <blog@example.test>');
    expect(addressHeader("blog@example.test")).toBe("blog@example.test");
    expect(addressHeader('"墨水" <ink@example.test>')).toMatch(/^=\?UTF-8\?B\?.+\?= <ink@example\.test>$/);
  });
});

describe("a mail template filled per reader", () => {
  it("parses as the mail each reader should get: subject, both parts, their links, headers", async () => {
    const template = mailTemplate({
      from: "墨水博客 <blog@example.test>",
      subject: "隔夜面包",
      text: `Read it.\n\nUnsubscribe: %%U%%\nLanguage: %%P%%\n`,
      html: `<p>${"Long paragraph = with equals. ".repeat(20)}</p><a href="%%U%%">unsubscribe</a> <a href="%%P%%">language</a>`,
      placeholders: ["%%U%%", "%%P%%"],
    });
    const pieces = fillTemplate(
      template,
      "reader@example.test",
      {
        text: { "%%U%%": "https://blog.example/u?token=a.b", "%%P%%": "https://blog.example/u?token=a.b#language" },
        html: { "%%U%%": "https://blog.example/u?token=a.b&amp;x", "%%P%%": "https://blog.example/p" },
      },
      { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    );
    const raw = Buffer.concat(pieces);
    for (const line of raw.toString("latin1").split("\r\n")) expect(line.length).toBeLessThanOrEqual(998);
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe("隔夜面包");
    expect(parsed.from?.value[0]).toMatchObject({ name: "墨水博客", address: "blog@example.test" });
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0]?.address : null).toBe("reader@example.test");
    expect(parsed.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line).toBe(
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    );
    expect(parsed.messageId).toMatch(/@example\.test>$/);
    expect(parsed.text).toContain(
      "Unsubscribe: https://blog.example/u?token=a.b\nLanguage: https://blog.example/u?token=a.b#language",
    );
    expect(parsed.html).toContain('<a href="https://blog.example/u?token=a.b&amp;x">unsubscribe</a>');
    expect(parsed.html).toContain("Long paragraph = with equals. ".repeat(20));
    // The shared pieces are the template's own buffers, not copies.
    expect(pieces).toContain(template.text.pieces[0]);
  });
});
