import { describe, expect, it } from "vitest";
import { lazyModule } from "./lazy-module.server.ts";

describe("lazyModule", () => {
  it("imports nothing until asked, then once for concurrent callers", async () => {
    let calls = 0;
    const mod = lazyModule(async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 5));
      return { value: 42 };
    });
    expect(calls).toBe(0);
    expect(mod.loaded()).toBe(false);
    const [a, b, c] = await Promise.all([mod(), mod(), mod()]);
    expect(calls).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(a.value).toBe(42);
    expect(mod.loaded()).toBe(true);
    await mod();
    expect(calls).toBe(1);
  });

  it("rejects every waiting caller with the import's error, then tries again", async () => {
    let calls = 0;
    const mod = lazyModule(async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 5));
      if (calls === 1) throw new Error("Cannot find package 'x'");
      return { ok: true };
    });
    const first = await Promise.allSettled([mod(), mod()]);
    expect(first.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(first[0]?.status === "rejected" && (first[0].reason as Error).message).toBe("Cannot find package 'x'");
    expect(calls).toBe(1);
    expect(mod.loaded()).toBe(false);
    await expect(mod()).resolves.toEqual({ ok: true });
    expect(calls).toBe(2);
    expect(mod.loaded()).toBe(true);
  });

  it("loads a real package on first use", async () => {
    const yaml = lazyModule(() => import("yaml"));
    expect((await yaml()).parse("a: 1")).toEqual({ a: 1 });
  });
});
