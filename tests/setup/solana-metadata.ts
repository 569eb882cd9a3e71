import { type Address, getAddressEncoder } from "@solana/kit";

/**
 * A Metaplex metadata account's bytes as the program writes them: key 4, update authority,
 * mint, then name, symbol and uri, each u32-length-prefixed and padded with NUL to its maximum.
 */
export function metaplexMetadataBytes(mint: Address, name: string, symbol: string, key = 4): Uint8Array {
  const field = (text: string, size: number) => {
    const bytes = new Uint8Array(4 + size);
    new DataView(bytes.buffer).setUint32(0, size, true);
    bytes.set(new TextEncoder().encode(text), 4);
    return bytes;
  };
  const parts = [
    Uint8Array.of(key),
    new Uint8Array(32),
    new Uint8Array(getAddressEncoder().encode(mint)),
    field(name, 32),
    field(symbol, 10),
    field("https://example.test/meta.json", 200),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
