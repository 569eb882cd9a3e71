import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  avif,
  claimedSizePng,
  ENTITY_SVG,
  gif,
  HOSTILE_SVG,
  htmlJpegPolyglot,
  jpeg,
  png,
  webp,
} from "../../../tests/fixtures/images.ts";
import { ImageError, MAX_STORED_WIDTH, processImage, VARIANT_WIDTHS } from "./image.server.ts";

describe("processImage", () => {
  it("makes WebP variants narrower than the image, plus one at its own width, and a JPEG fallback", async () => {
    const out = await processImage(await jpeg(1200, 600), "jpeg");
    expect(out.variants.map((v) => v.file)).toEqual(["320.webp", "640.webp", "1024.webp", "1200.webp"]);
    expect(out.variants.map((v) => [v.width, v.height])).toEqual([
      [320, 160],
      [640, 320],
      [1024, 512],
      [1200, 600],
    ]);
    for (const v of out.variants) expect((await sharp(v.data).metadata()).format).toBe("webp");
    expect(out.fallback).toMatchObject({ file: "image.jpg", contentType: "image/jpeg", width: 1200, height: 600 });
    expect((await sharp(out.fallback.data).metadata()).format).toBe("jpeg");
  });

  it("scales a wide image down to the widest stored size", async () => {
    const out = await processImage(await png(3000, 1000, false), "png");
    expect(out.sourceWidth).toBe(3000);
    expect(out.fallback.width).toBe(MAX_STORED_WIDTH);
    expect(out.variants.map((v) => v.width)).toEqual([...VARIANT_WIDTHS]);
  });

  it("keeps transparency in a PNG fallback", async () => {
    const out = await processImage(await png(100, 50, true), "png");
    expect(out.fallback).toMatchObject({ file: "image.png", contentType: "image/png" });
    expect((await sharp(out.fallback.data).metadata()).hasAlpha).toBe(true);
  });

  it("reads WebP, GIF and AVIF", async () => {
    expect((await processImage(await webp(500, 300), "webp")).fallback.width).toBe(500);
    expect((await processImage(await gif(120, 80), "gif")).fallback.height).toBe(80);
    expect((await processImage(await avif(256, 128), "avif")).fallback.width).toBe(256);
  });

  it("turns the image upright and drops EXIF and GPS", async () => {
    const input = await jpeg(400, 200, { orientation: 6, gps: true });
    expect((await sharp(input).metadata()).exif).toBeDefined();
    const out = await processImage(input, "jpeg");
    expect([out.fallback.width, out.fallback.height]).toEqual([200, 400]);
    for (const file of [out.fallback, ...out.variants]) {
      const meta = await sharp(file.data).metadata();
      expect(meta.exif, file.file).toBeUndefined();
      expect(meta.orientation ?? 1, file.file).toBe(1);
      expect(file.data.includes("secret-owner"), file.file).toBe(false);
    }
  });

  it("does not carry over what follows the image in an HTML/JPEG polyglot", async () => {
    const out = await processImage(await htmlJpegPolyglot(), "jpeg");
    for (const file of [out.fallback, ...out.variants]) {
      expect(file.data.includes("<script"), file.file).toBe(false);
      expect(file.data.includes("<html"), file.file).toBe(false);
    }
  });

  it("rasterizes an SVG: no script, handler or link survives", async () => {
    const out = await processImage(HOSTILE_SVG, "svg");
    expect(out.fallback.contentType).toBe("image/png");
    expect([out.fallback.width, out.fallback.height]).toEqual([200, 100]);
    for (const file of [out.fallback, ...out.variants]) {
      for (const needle of ["<script", "onload", "javascript:", "<svg"]) {
        expect(file.data.includes(needle), `${file.file} ${needle}`).toBe(false);
      }
    }
  });

  it("refuses an SVG with a DOCTYPE or entities", async () => {
    await expect(processImage(ENTITY_SVG, "svg")).rejects.toMatchObject({ code: "unsafe-svg" });
  });

  it("refuses a 50000 × 50000 image before decoding it", async () => {
    const error = await processImage(claimedSizePng(50_000, 50_000), "png").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageError);
    expect(error).toMatchObject({ code: "too-many-pixels" });
  });

  it("refuses bytes that only start like an image", async () => {
    const truncated = (await jpeg(300, 300)).subarray(0, 200);
    await expect(processImage(truncated, "jpeg")).rejects.toMatchObject({ code: "invalid-format" });
  });
});
