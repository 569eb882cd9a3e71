import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { sniffImport } from "./upload-kind.server.ts";

const enc = (text: string) => new TextEncoder().encode(text);

describe("sniffImport", () => {
  it("tells a zip from JSON by the first bytes", () => {
    expect(sniffImport(zipSync({ "a.md": enc("# A") }))).toBe("zip");
    expect(sniffImport(zipSync({}))).toBe("zip");
    expect(sniffImport(enc('{"db":[]}'))).toBe("json");
    expect(sniffImport(enc('\ufeff\n  {"db":[]}'))).toBe("json");
    expect(sniffImport(enc('\ufeff\n<?xml version="1.0"?><rss/>'))).toBe("xml");
    // Any markup is read as XML, and refused later when it is not a WordPress export.
    expect(sniffImport(enc("<html>{}</html>"))).toBe("xml");
  });

  it("refuses anything else, whatever its name would say", () => {
    expect(sniffImport(enc("no zip"))).toBeNull();
    expect(sniffImport(enc("[1, 2]"))).toBeNull();
    expect(sniffImport(enc("PK\u0001\u0002"))).toBeNull();
    expect(sniffImport(new Uint8Array())).toBeNull();
  });
});
