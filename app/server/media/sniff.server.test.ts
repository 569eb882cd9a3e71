import { describe, expect, it } from "vitest";
import { avif, gif, HOSTILE_SVG, jpeg, png, webp } from "../../../tests/fixtures/images.ts";
import { checkImageKind, extensionOf, sniffImage } from "./sniff.server.ts";

describe("sniffImage", () => {
  it("recognises each accepted format by its first bytes", async () => {
    expect(sniffImage(await jpeg(10, 10))).toBe("jpeg");
    expect(sniffImage(await png(10, 10))).toBe("png");
    expect(sniffImage(await gif(10, 10))).toBe("gif");
    expect(sniffImage(await webp(10, 10))).toBe("webp");
    expect(sniffImage(await avif(16, 16))).toBe("avif");
    expect(sniffImage(HOSTILE_SVG)).toBe("svg");
    expect(sniffImage(Buffer.from('\uFEFF<?xml version="1.0"?>\n<!-- hi -->\n<svg></svg>'))).toBe("svg");
  });

  it("recognises nothing else", () => {
    for (const text of ["<html><script>alert(1)</script>", "GIF90a", "%PDF-1.7", "RIFF0000WAVE", "", "<svgx>"]) {
      expect(sniffImage(Buffer.from(text)), text).toBeNull();
    }
    // An MP4 is an ISO-BMFF file too, but not an AVIF.
    expect(sniffImage(Buffer.from("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom", "latin1"))).toBeNull();
  });
});

describe("extensionOf", () => {
  it("takes the last extension of the base name, lower-cased", () => {
    expect(extensionOf("Photo.JPG")).toBe("jpg");
    expect(extensionOf("../../x.png")).toBe("png");
    expect(extensionOf("a.tar.gz")).toBe("gz");
  });

  it("gives nothing for names without one, dot files, or a NUL", () => {
    for (const name of ["../../x", "..\\x", "%2e%2e%2f", ".png", "x.", "a.png\0.html", ""]) {
      expect(extensionOf(name), JSON.stringify(name)).toBeNull();
    }
  });
});

describe("checkImageKind", () => {
  it("accepts when the name and the bytes agree", async () => {
    expect(checkImageKind("cat.jpeg", await jpeg(8, 8))).toEqual({ ok: true, kind: "jpeg" });
    expect(checkImageKind("logo.svg", HOSTILE_SVG)).toEqual({ ok: true, kind: "svg" });
  });

  it("refuses a name off the allowlist, content off the allowlist, and a disagreement", async () => {
    expect(checkImageKind("cat.html", await jpeg(8, 8))).toEqual({ ok: false, reason: "extension" });
    expect(checkImageKind("page.png", Buffer.from("<html></html>"))).toEqual({ ok: false, reason: "content" });
    expect(checkImageKind("cat.png", await jpeg(8, 8))).toEqual({ ok: false, reason: "mismatch" });
    expect(checkImageKind("a.png\0.html", await png(8, 8))).toEqual({ ok: false, reason: "extension" });
  });
});
