import { describe, expect, it } from "vitest";
import { validate } from "../forms.ts";
import { brandSchema } from "./brand.ts";

// The brand form's rules (issue 48): the home page's cover is an upload of this site with an
// optional description per language.

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return validate(brandSchema, data);
};
const UPLOAD = "/media/abcdefghij0123456789/image.jpg";

describe("the brand form's home cover", () => {
  it("takes no cover, or an upload's address with a description per language", () => {
    expect(form({})).toMatchObject({ ok: true, data: { cover: "", coverAltEn: "", coverAltZh: "" } });
    expect(form({ cover: ` ${UPLOAD} `, coverAltEn: " Tea fields at dawn ", coverAltZh: "清晨的茶园" })).toMatchObject({
      ok: true,
      data: { cover: UPLOAD, coverAltEn: "Tea fields at dawn", coverAltZh: "清晨的茶园" },
    });
  });

  it("refuses an address that is not an upload of this site", () => {
    for (const cover of [
      "https://example.com/cover.jpg",
      "/social.jpg",
      "/media/short/image.jpg",
      "javascript:alert(1)",
    ])
      expect(form({ cover }), cover).toMatchObject({ ok: false, errors: { cover: "adminBrand:errors.upload" } });
  });

  it("refuses a description over 200 characters, in either language", () => {
    expect(form({ cover: UPLOAD, coverAltEn: "a".repeat(200), coverAltZh: "字".repeat(200) }).ok).toBe(true);
    expect(form({ coverAltEn: "a".repeat(201) })).toMatchObject({
      ok: false,
      errors: { coverAltEn: "adminBrand:errors.coverAltTooLong" },
    });
    expect(form({ coverAltZh: "字".repeat(201) })).toMatchObject({
      ok: false,
      errors: { coverAltZh: "adminBrand:errors.coverAltTooLong" },
    });
  });
});
