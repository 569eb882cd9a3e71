import { describe, expect, it } from "vitest";
import { jsonForScript } from "./post-seo.ts";

describe("jsonForScript", () => {
  it("escapes < so the data cannot close its script element", () => {
    const json = jsonForScript({ headline: "</script><script>alert(1)</script><!--" });
    expect(json).not.toContain("<");
    expect(JSON.parse(json)).toEqual({ headline: "</script><script>alert(1)</script><!--" });
  });
});
