import { describe, expect, it } from "vitest";
import * as reader from "../../lean/logic.ts";
import {
  countedRead,
  isSpeculative,
  MAX_FORWARDED_REFERRER,
  READ_BEACON_HEADER,
  READ_REFERRER_HEADER,
} from "./read-count.server.ts";

function headers(values: Record<string, string>): (name: string) => string | null {
  const map = new Headers(values);
  return (name) => map.get(name);
}

describe("countedRead", () => {
  it("counts a plain GET with its Referer", () => {
    expect(countedRead({ method: "GET", header: headers({ Referer: "https://www.bing.com/" }) })).toEqual({
      referer: "https://www.bing.com/",
    });
    expect(countedRead({ method: "GET", header: headers({}) })).toEqual({ referer: null });
  });

  it("counts nothing for a prefetch, a prerender or the legacy Purpose header", () => {
    for (const value of ["prefetch", "prefetch;prerender", "prefetch;anonymous-client-ip", "Prefetch"]) {
      expect(countedRead({ method: "GET", header: headers({ "Sec-Purpose": value }) })).toBeNull();
    }
    expect(countedRead({ method: "GET", header: headers({ Purpose: "prefetch" }) })).toBeNull();
    expect(countedRead({ method: "GET", header: headers({ "X-Moz": "prefetch" }) })).toBeNull();
    // A beacon is never itself speculative.
    expect(
      countedRead({ method: "HEAD", header: headers({ "X-Inkwell-Read": "1", "Sec-Purpose": "prefetch" }) }),
    ).toBeNull();
  });

  it("counts nothing for a revalidation", () => {
    expect(countedRead({ method: "GET", header: headers({}), revalidation: true })).toBeNull();
  });

  it("counts a HEAD only as the beacon, with the referrer it forwards", () => {
    expect(countedRead({ method: "HEAD", header: headers({}) })).toBeNull();
    expect(countedRead({ method: "HEAD", header: headers({ "X-Inkwell-Read": "yes" }) })).toBeNull();
    expect(
      countedRead({
        method: "HEAD",
        header: headers({
          "X-Inkwell-Read": "1",
          "X-Inkwell-Referrer": "https://www.google.com/",
          Referer: "http://blog.example/en/posts/detail/x",
        }),
      }),
    ).toEqual({ referer: "https://www.google.com/" });
    expect(
      countedRead({ method: "HEAD", header: headers({ "X-Inkwell-Read": "1", Referer: "http://blog.example/" }) }),
    ).toEqual({ referer: null });
    const long = `https://a.example/${"x".repeat(MAX_FORWARDED_REFERRER)}`;
    expect(
      countedRead({ method: "HEAD", header: headers({ "X-Inkwell-Read": "1", "X-Inkwell-Referrer": long }) }),
    ).toEqual({ referer: null });
  });

  it("counts nothing for other methods, beacon header or not", () => {
    for (const method of ["POST", "PUT", "OPTIONS", "DELETE"]) {
      expect(countedRead({ method, header: headers({ "X-Inkwell-Read": "1" }) })).toBeNull();
    }
  });
});

describe("isSpeculative", () => {
  it("reads a prefetch token, not a word that contains it", () => {
    expect(isSpeculative(headers({ "Sec-Purpose": "prefetch;prerender" }))).toBe(true);
    expect(isSpeculative(headers({ "Sec-Purpose": "noprefetching" }))).toBe(false);
    expect(isSpeculative(headers({}))).toBe(false);
  });
});

describe("the beacon's headers", () => {
  it("are the ones the reader script sends", () => {
    expect(reader.READ_BEACON_HEADER.toLowerCase()).toBe(READ_BEACON_HEADER);
    expect(reader.READ_REFERRER_HEADER.toLowerCase()).toBe(READ_REFERRER_HEADER);
  });
});
