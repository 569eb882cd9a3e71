/**
 * Solana addresses typed or pasted by people: base58 of exactly 32 bytes, and the well-known
 * program, sysvar and mint addresses nobody should send funds to.
 */
import { type Address, getBase58Encoder, isOffCurveAddress } from "@solana/kit";

export type AddressErrorCode = "address.empty" | "address.notBase58" | "address.wrongLength";

export type AddressResult = { ok: true; address: Address } | { ok: false; code: AddressErrorCode };

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/**
 * Validates a base58 address of 32 bytes. Outer blanks are trimmed; nothing else is corrected
 * (a look-alike character such as `0`, `O`, `I` or `l` is an error, not a guess).
 */
export function parseAddress(input: string): AddressResult {
  const text = input.trim();
  if (text === "") return { ok: false, code: "address.empty" };
  if (!BASE58.test(text)) return { ok: false, code: "address.notBase58" };
  // 32 bytes are 32 to 44 base58 characters; a longer string cannot decode to 32 bytes.
  if (text.length > 44) return { ok: false, code: "address.wrongLength" };
  const bytes = getBase58Encoder().encode(text);
  if (bytes.length !== 32) return { ok: false, code: "address.wrongLength" };
  return { ok: true, address: text as Address };
}

/** The 32 bytes behind a valid address. */
export function addressBytes(address: Address): Uint8Array {
  return new Uint8Array(getBase58Encoder().encode(address));
}

/**
 * True when the address is not on the ed25519 curve, so no private key exists for it: a program
 * derived address such as an associated token account or a multisig vault. Sending to one is
 * sometimes intended (vaults) and often a mistake (a token account pasted instead of its owner).
 */
export function isOffCurve(address: Address): boolean {
  return isOffCurveAddress(address);
}

export type KnownAddressKind = "program" | "sysvar" | "mint" | "burn";

/** Addresses that are never a payment recipient, with what they are. */
export const KNOWN_ADDRESSES: ReadonlyMap<string, { kind: KnownAddressKind; name: string }> = new Map([
  ["11111111111111111111111111111111", { kind: "program", name: "System Program" }],
  ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", { kind: "program", name: "SPL Token" }],
  ["TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb", { kind: "program", name: "SPL Token-2022" }],
  ["ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL", { kind: "program", name: "Associated Token Account" }],
  ["ComputeBudget111111111111111111111111111111", { kind: "program", name: "Compute Budget" }],
  ["MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr", { kind: "program", name: "Memo" }],
  ["Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo", { kind: "program", name: "Memo (v1)" }],
  ["AddressLookupTab1e1111111111111111111111111", { kind: "program", name: "Address Lookup Table" }],
  ["Stake11111111111111111111111111111111111111", { kind: "program", name: "Stake" }],
  ["StakeConfig11111111111111111111111111111111", { kind: "program", name: "Stake Config" }],
  ["Vote111111111111111111111111111111111111111", { kind: "program", name: "Vote" }],
  ["Config1111111111111111111111111111111111111", { kind: "program", name: "Config" }],
  ["Feature111111111111111111111111111111111111", { kind: "program", name: "Feature Gate" }],
  ["BPFLoader1111111111111111111111111111111111", { kind: "program", name: "BPF Loader (deprecated)" }],
  ["BPFLoader2111111111111111111111111111111111", { kind: "program", name: "BPF Loader" }],
  ["BPFLoaderUpgradeab1e11111111111111111111111", { kind: "program", name: "BPF Upgradeable Loader" }],
  ["LoaderV411111111111111111111111111111111111", { kind: "program", name: "Loader v4" }],
  ["NativeLoader1111111111111111111111111111111", { kind: "program", name: "Native Loader" }],
  ["Ed25519SigVerify111111111111111111111111111", { kind: "program", name: "Ed25519 precompile" }],
  ["KeccakSecp256k11111111111111111111111111111", { kind: "program", name: "Secp256k1 precompile" }],
  ["Secp256r1SigVerify1111111111111111111111111", { kind: "program", name: "Secp256r1 precompile" }],
  ["ZkE1Gama1Proof11111111111111111111111111111", { kind: "program", name: "ZK ElGamal Proof" }],
  ["Sysvar1111111111111111111111111111111111111", { kind: "sysvar", name: "Sysvar owner" }],
  ["SysvarC1ock11111111111111111111111111111111", { kind: "sysvar", name: "Clock" }],
  ["SysvarEpochSchedu1e111111111111111111111111", { kind: "sysvar", name: "Epoch Schedule" }],
  ["SysvarEpochRewards1111111111111111111111111", { kind: "sysvar", name: "Epoch Rewards" }],
  ["SysvarFees111111111111111111111111111111111", { kind: "sysvar", name: "Fees" }],
  ["Sysvar1nstructions1111111111111111111111111", { kind: "sysvar", name: "Instructions" }],
  ["SysvarLastRestartS1ot1111111111111111111111", { kind: "sysvar", name: "Last Restart Slot" }],
  ["SysvarRecentB1ockHashes11111111111111111111", { kind: "sysvar", name: "Recent Blockhashes" }],
  ["SysvarRent111111111111111111111111111111111", { kind: "sysvar", name: "Rent" }],
  ["SysvarRewards111111111111111111111111111111", { kind: "sysvar", name: "Rewards" }],
  ["SysvarS1otHashes111111111111111111111111111", { kind: "sysvar", name: "Slot Hashes" }],
  ["SysvarS1otHistory11111111111111111111111111", { kind: "sysvar", name: "Slot History" }],
  ["SysvarStakeHistory1111111111111111111111111", { kind: "sysvar", name: "Stake History" }],
  ["So11111111111111111111111111111111111111112", { kind: "mint", name: "Wrapped SOL mint" }],
  ["9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP", { kind: "mint", name: "Wrapped SOL mint (Token-2022)" }],
  ["1nc1nerator11111111111111111111111111111111", { kind: "burn", name: "Incinerator" }],
]);

/** The well-known entry for an address, if it is one. */
export function knownAddress(address: string): { kind: KnownAddressKind; name: string } | undefined {
  return KNOWN_ADDRESSES.get(address);
}

/** Shortened form for narrow screens: `AbCd…WxYz`. Never use it where the full address must be checked. */
export function shortAddress(address: string, chars = 4): string {
  return address.length <= chars * 2 + 1 ? address : `${address.slice(0, chars)}…${address.slice(-chars)}`;
}
