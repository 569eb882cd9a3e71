import { randomBytes } from "node:crypto";

// A fast, seeded, non-cryptographic hash for keys that never leave the process: the
// per-instance "already counted" sets of the read counters. sha256 through node:crypto
// costs ~3 µs a call, most of it the call itself, where a cached post page takes ~100 µs
// in all; this costs a fraction of a microsecond for a User-Agent-sized key. The seed is
// random per process, so nobody outside can aim two keys at the same value; a chance
// collision (odds about n²/2⁵⁴) only merges two counts.

/** A random seed for `quickHash`, new in every process. */
export function quickHashSeed(): number {
  return randomBytes(4).readUInt32LE(0);
}

/** A 53-bit hash of `text` under `seed`, in base 36. */
export function quickHash(text: string, seed: number): string {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x85ebca6b ^ Math.imul(seed, 0x27d4eb2f);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  // Final mixing: every input bit reaches every output bit of both halves.
  a = Math.imul(a ^ (a >>> 16), 0x7feb352d) ^ Math.imul(b ^ (b >>> 15), 0x846ca68b);
  b = Math.imul(b ^ (b >>> 16), 0x7feb352d) ^ Math.imul(a ^ (a >>> 15), 0x846ca68b);
  a ^= a >>> 16;
  b ^= b >>> 13;
  return (0x100000000 * (b & 0x1fffff) + (a >>> 0)).toString(36);
}

const visitorSeed = quickHashSeed();
let lastIp = "";
let lastAgent = "";
let lastVisitor = "";

/**
 * A reader's in-process key: the quick hash of address and browser under this process's
 * seed. The last answer is kept, as the view counter and Insights ask for the same request.
 */
export function visitorKey(ip: string, userAgent: string): string {
  if (ip === lastIp && userAgent === lastAgent && lastVisitor !== "") return lastVisitor;
  lastIp = ip;
  lastAgent = userAgent;
  lastVisitor = quickHash(`${ip}\0${userAgent}`, visitorSeed);
  return lastVisitor;
}

let lastAddressIp = "";
let lastAddress = "";

/** An address's in-process key (for limits per address): kept apart from `visitorKey`'s last answer. */
export function addressKey(ip: string): string {
  if (ip === lastAddressIp && lastAddress !== "") return lastAddress;
  lastAddressIp = ip;
  lastAddress = quickHash(`${ip}\0`, visitorSeed ^ 0x5bd1e995);
  return lastAddress;
}
