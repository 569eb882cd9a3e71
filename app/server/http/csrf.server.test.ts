import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "./security.server.ts";

const base = { selfOrigin: "http://127.0.0.1:3000", publicUrl: "https://blog.example" };

describe("isCrossSiteWrite", () => {
  it.each([
    [{ method: "GET", origin: "https://evil.example", secFetchSite: "cross-site" }, false],
    [{ method: "POST", origin: "http://127.0.0.1:3000", secFetchSite: "same-origin" }, false],
    [{ method: "POST", origin: "https://blog.example", secFetchSite: undefined }, false],
    [{ method: "POST", origin: undefined, secFetchSite: undefined }, false],
    [{ method: "POST", origin: "https://evil.example", secFetchSite: undefined }, true],
    [{ method: "DELETE", origin: "https://blog.example.evil.example", secFetchSite: undefined }, true],
    [{ method: "POST", origin: undefined, secFetchSite: "cross-site" }, true],
    [{ method: "POST", origin: "null", secFetchSite: undefined }, true],
    [{ method: "PUT", origin: "not a url", secFetchSite: undefined }, true],
    [{ method: "post", origin: "http://127.0.0.1:3001", secFetchSite: undefined }, true],
  ])("%o → %s", (request, refused) => {
    expect(isCrossSiteWrite({ ...base, ...request })).toBe(refused);
  });
});
