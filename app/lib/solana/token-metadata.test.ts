import type { Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { metaplexMetadataBytes } from "../../../tests/setup/solana-metadata.ts";
import {
  decodeMetaplexNames,
  formatTokenAmount,
  metaplexMetadataAddress,
  token2022Names,
  tokenOptionLabel,
} from "./token-metadata.ts";

const MINT = "84yYMQ7Zt3kqHiSvJfcR2v3wyuDTRcAZhSWsWeKtFfHa" as Address;
const OTHER = "So11111111111111111111111111111111111111112" as Address;

describe("token names", () => {
  it("reads a Metaplex metadata account's name and symbol, padding dropped", () => {
    expect(decodeMetaplexNames(metaplexMetadataBytes(MINT, "Inkwell Coin", "INK"), MINT)).toEqual({
      name: "Inkwell Coin",
      symbol: "INK",
    });
  });

  it("refuses another account kind, another mint's metadata and truncated data", () => {
    expect(decodeMetaplexNames(metaplexMetadataBytes(MINT, "A", "B", 6), MINT)).toBeNull();
    expect(decodeMetaplexNames(metaplexMetadataBytes(OTHER, "A", "B"), MINT)).toBeNull();
    expect(decodeMetaplexNames(metaplexMetadataBytes(MINT, "A", "B").subarray(0, 90), MINT)).toBeNull();
    const lying = metaplexMetadataBytes(MINT, "A", "B");
    new DataView(lying.buffer).setUint32(65, 1_000_000, true);
    expect(decodeMetaplexNames(lying, MINT)).toBeNull();
  });

  it("drops characters that reorder or hide text from a name", () => {
    expect(decodeMetaplexNames(metaplexMetadataBytes(MINT, "USD\u202eC", "U\u0007SD"), MINT)).toEqual({
      name: "USDC",
      symbol: "USD",
    });
    expect(decodeMetaplexNames(metaplexMetadataBytes(MINT, "", ""), MINT)).toBeNull();
  });

  it("reads the Token-2022 metadata extension from a mint's jsonParsed form", () => {
    const extensions = [
      { extension: "metadataPointer", state: {} },
      { extension: "tokenMetadata", state: { name: "Two Coin", symbol: "TWO", uri: "" } },
    ];
    expect(token2022Names(extensions)).toEqual({ name: "Two Coin", symbol: "TWO" });
    expect(token2022Names([{ extension: "immutableOwner" }])).toBeNull();
    expect(token2022Names(undefined)).toBeNull();
  });

  it("derives the metadata address from the mint (a different mint, a different address)", async () => {
    const a = await metaplexMetadataAddress(MINT);
    expect(a).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(await metaplexMetadataAddress(OTHER)).not.toBe(a);
  });
});

describe("token amounts a reader can read", () => {
  it("shows whole tokens in the reader's number format, exactly for any size", () => {
    expect(formatTokenAmount(1_000_000_000n, 6, "en")).toBe("1,000");
    expect(formatTokenAmount(1_000_500_000n, 6, "en")).toBe("1,000.5");
    expect(formatTokenAmount(1_000_500_000n, 6, "de")).toBe("1.000,5");
    expect(formatTokenAmount(123_456_789_012_345_678_901n, 0, "zh-CN")).toBe("123,456,789,012,345,678,901");
    expect(formatTokenAmount(1n, 9, "en")).toBe("0.000000001");
  });

  it("labels a picker option with the title, the short mint and the balance", () => {
    const info = { decimals: 6, names: { name: "Inkwell Coin", symbol: "INK" } };
    expect(tokenOptionLabel(MINT, 1_000_000_000n, info, "en")).toBe("Inkwell Coin (INK) · 84yYMQ…KtFfHa — 1,000");
    expect(tokenOptionLabel(MINT, 5n, { decimals: 0, names: null }, "en")).toBe("84yYMQ…KtFfHa — 5");
    expect(tokenOptionLabel(MINT, 5n, undefined, "en")).toBe("84yYMQ…KtFfHa — 5");
  });
});
