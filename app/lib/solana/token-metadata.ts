/**
 * A token's name and symbol as its mint carries them, read over the page's own RPC (no
 * third-party API): the Token-2022 metadata extension (in the mint's jsonParsed form), else
 * the Metaplex metadata account at its program-derived address. Anyone can name a token
 * "USDC", so a name is always shown next to the short mint, never instead of it, and text
 * that could hide or reorder characters is dropped.
 */
import { type Address, getAddressDecoder, getAddressEncoder, getProgramDerivedAddress } from "@solana/kit";
import { cleanDisplayName } from "../display-name.ts";
import { shortAddress } from "./address.ts";
import { formatAmount } from "./amount.ts";

export const METAPLEX_METADATA_PROGRAM = "metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s" as Address;

export interface TokenNames {
  name: string;
  symbol: string;
}

/** What the page knows of a mint: its decimals, and its name and symbol when it carries them. */
export interface TokenInfo {
  decimals: number;
  names: TokenNames | null;
}

const NAME_MAX = 32;
const SYMBOL_MAX = 10;

function clean(raw: unknown, max: number): string {
  if (typeof raw !== "string") return "";
  // Metaplex pads with NUL; cleanDisplayName drops those with the other control characters.
  return [...cleanDisplayName(raw)].slice(0, max).join("");
}

function namesOf(name: unknown, symbol: unknown): TokenNames | null {
  const names = { name: clean(name, NAME_MAX), symbol: clean(symbol, SYMBOL_MAX) };
  return names.name || names.symbol ? names : null;
}

/** The metadata account's address for a mint: seeds "metadata", the program, the mint. */
export async function metaplexMetadataAddress(mint: Address): Promise<Address> {
  const [address] = await getProgramDerivedAddress({
    programAddress: METAPLEX_METADATA_PROGRAM,
    seeds: ["metadata", getAddressEncoder().encode(METAPLEX_METADATA_PROGRAM), getAddressEncoder().encode(mint)],
  });
  return address;
}

/**
 * Name and symbol from a Metaplex metadata account's bytes: key (1 byte, 4 for metadata),
 * update authority (32), mint (32), then name and symbol as u32-length-prefixed UTF-8.
 * Anything else (another account kind, another mint, lengths past the data) gives null.
 */
export function decodeMetaplexNames(data: Uint8Array, mint: Address): TokenNames | null {
  if (data.length < 73 || data[0] !== 4) return null;
  if (getAddressDecoder().decode(data.subarray(33, 65)) !== mint) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const utf8 = new TextDecoder("utf-8", { fatal: false });
  let offset = 65;
  const strings: string[] = [];
  for (const max of [200, 50]) {
    if (offset + 4 > data.length) return null;
    const length = view.getUint32(offset, true);
    offset += 4;
    if (length > max || offset + length > data.length) return null;
    strings.push(utf8.decode(data.subarray(offset, offset + length)));
    offset += length;
  }
  return namesOf(strings[0], strings[1]);
}

/** Name and symbol from a Token-2022 mint's jsonParsed extensions (`tokenMetadata`). */
export function token2022Names(extensions: unknown): TokenNames | null {
  if (!Array.isArray(extensions)) return null;
  for (const raw of extensions) {
    if (typeof raw !== "object" || raw === null) continue;
    const ext = raw as { extension?: unknown; state?: unknown };
    if (ext.extension !== "tokenMetadata" || typeof ext.state !== "object" || ext.state === null) continue;
    const state = ext.state as { name?: unknown; symbol?: unknown };
    return namesOf(state.name, state.symbol);
  }
  return null;
}

/** "Name (SYM)", "Name", "SYM", or null when the mint carries neither. */
export function tokenTitle(names: TokenNames | null): string | null {
  if (!names) return null;
  if (names.name && names.symbol) return `${names.name} (${names.symbol})`;
  return names.name || names.symbol || null;
}

/** The picker's text: the token's title and short mint, and the balance in whole tokens. */
export function tokenOptionLabel(mint: Address, amount: bigint, info: TokenInfo | undefined, locale: string): string {
  const short = shortAddress(mint, 6);
  const title = tokenTitle(info?.names ?? null);
  const balance = info ? formatTokenAmount(amount, info.decimals, locale) : amount.toString();
  return `${title ? `${title} · ${short}` : short} — ${balance}`;
}

/**
 * An amount in whole tokens in the reader's number format (1,000 / 1,000.5 / 1.000,5),
 * exact for any size: the decimal text goes to Intl as a string, never through a float.
 */
export function formatTokenAmount(amount: bigint, decimals: number, locale: string): string {
  const exact = formatAmount(amount, decimals) as `${number}`;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: Math.min(decimals, 100) }).format(exact);
}
