import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { cdata, el, escapeXml, renderXml, stripInvalidXmlChars } from "./xml.server.ts";

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false });

describe("the XML writer", () => {
  it("escapes markup characters in text and attributes, and they round-trip", () => {
    const nasty = `<script>alert("x")</script> & 'quotes' ]]>`;
    const xml = renderXml(el("root", { title: nasty }, el("text", {}, nasty), el("html", {}, cdata(nasty))));
    expect(XMLValidator.validate(xml)).toBe(true);
    // Markup appears only inside the CDATA section.
    expect(xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, "")).not.toContain("<script>");
    const doc = parser.parse(xml);
    expect(doc.root["@_title"]).toBe(nasty);
    expect(doc.root.text).toBe(nasty);
    expect(doc.root.html).toBe(nasty);
  });

  it("drops characters XML cannot carry, keeps tabs, newlines, CJK and emoji", () => {
    expect(stripInvalidXmlChars("a\u0000b\u0008c\u000Bd\uFFFEe\uD800f")).toBe("abcdef");
    expect(stripInvalidXmlChars("\t\n\r中文😀")).toBe("\t\n\r中文😀");
    expect(escapeXml("a\u0001<")).toBe("a&lt;");
  });

  it("leaves out null, undefined and false children and undefined attributes", () => {
    const xml = renderXml(el("a", { x: undefined, y: "1" }, null, undefined, false, el("b"), [el("c", {}, "t")]));
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<a y="1"><b/><c>t</c></a>\n');
  });

  it("refuses element and attribute names that are not names", () => {
    expect(() => el("a b")).toThrow(/element name/);
    expect(() => el("a", { 'x="1" onload': "y" })).toThrow(/attribute name/);
  });
});
