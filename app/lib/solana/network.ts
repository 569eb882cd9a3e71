/**
 * Networks the /solana pages can talk to: the two public clusters and a custom RPC URL. Pure
 * code, shared by the pages and the server (which widens connect-src for the chosen RPC).
 */

export type NetworkId = "mainnet-beta" | "devnet" | "custom";

export const PUBLIC_RPC: Record<Exclude<NetworkId, "custom">, string> = {
  "mainnet-beta": "https://api.mainnet-beta.solana.com",
  devnet: "https://api.devnet.solana.com",
};

/** Cookie (path /) holding a custom RPC URL, so the server can allow it in connect-src. */
export const RPC_COOKIE = "solana_rpc";

/**
 * Wallet Standard chain ids by network. A custom RPC may serve any cluster, so no chain is named
 * for it (the field is optional for signTransaction; wallets may refuse a chain they lack).
 */
export const CHAIN: Record<NetworkId, `solana:${string}` | undefined> = {
  "mainnet-beta": "solana:mainnet",
  devnet: "solana:devnet",
  custom: undefined,
};

const DNS_LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
/**
 * A host a CSP source can name: a DNS name, an IPv4 address, or a bracketed IPv6 one.
 * A WHATWG URL's host may also hold `;`, `*`, `'` or `,` (`http://x;sandbox` parses),
 * which would end the connect-src directive and start another in the header.
 */
const SAFE_HOST = new RegExp(`^(?:${DNS_LABEL}(?:\\.${DNS_LABEL})*\\.?|\\[[0-9a-f:.]+\\])$`);

/** `input` as a URL with one of `protocols`, no credentials and a plain host; null for anything else. */
function parseServiceUrl(input: string, protocols: readonly string[]): URL | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (!protocols.includes(url.protocol)) return null;
  if (url.username || url.password) return null;
  if (!SAFE_HOST.test(url.hostname)) return null;
  return url;
}

/** An http(s) RPC URL without credentials, normalised; null for anything else. */
export function parseRpcUrl(input: string): string | null {
  return parseServiceUrl(input, ["https:", "http:"])?.toString() ?? null;
}

/** The network an RPC URL belongs to (one of the public ones, else custom). */
export function networkOfUrl(url: string): NetworkId {
  for (const [id, value] of Object.entries(PUBLIC_RPC)) if (value === url.replace(/\/$/, "")) return id as NetworkId;
  return "custom";
}

/** Solana Explorer address for a transaction on the given RPC. */
export function explorerTxUrl(signature: string, rpcUrl: string): string {
  const network = networkOfUrl(rpcUrl);
  const base = `https://explorer.solana.com/tx/${encodeURIComponent(signature)}`;
  if (network === "mainnet-beta") return base;
  if (network === "devnet") return `${base}?cluster=devnet`;
  return `${base}?cluster=custom&customUrl=${encodeURIComponent(rpcUrl)}`;
}

/** The custom RPC URL a request's cookie names, or null. */
export function rpcFromCookie(cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== RPC_COOKIE) continue;
    try {
      return parseRpcUrl(decodeURIComponent(rest.join("=")));
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * connect-src sources for the /solana pages: any https/wss RPC, plus the origins (and their
 * WebSocket twins) of the default RPC and of a custom one (which may be plain http, e.g. local).
 */
export function solanaConnectSources(defaultRpc: string, customRpc: string | null): string[] {
  const sources = new Set(["https:", "wss:"]);
  for (const raw of [defaultRpc, customRpc]) {
    if (!raw) continue;
    const url = parseRpcUrl(raw);
    if (!url) continue;
    const origin = new URL(url).origin;
    if (origin.startsWith("http://")) {
      sources.add(origin);
      sources.add(origin.replace(/^http:/, "ws:"));
    }
  }
  return [...sources];
}

/** The relay the sign client uses unless WALLETCONNECT_RELAY_URL names another. */
export const DEFAULT_RELAY_URL = "wss://relay.walletconnect.org";

/** A ws:// or wss:// URL without credentials, normalised; null for anything else. */
export function parseRelayUrl(input: string): string | null {
  return parseServiceUrl(input, ["wss:", "ws:"])?.toString().replace(/\/$/, "") ?? null;
}

/** The connect-src source that lets a page open the relay's socket (its origin). */
export function relayConnectSource(relayUrl: string): string | null {
  const url = parseRelayUrl(relayUrl);
  return url ? new URL(url).origin.replace(/^http/, "ws") : null;
}

/** Where WalletConnect's Verify page is served from (the sign client frames it to attest our origin). */
export const WC_VERIFY_ORIGIN = "https://verify.walletconnect.org";

/**
 * The CSP sources the /solana pages need for WalletConnect: the relay's origin in connect-src
 * and the Verify page in frame-src; null while WalletConnect is off (no project id).
 */
export function walletConnectSources(
  projectId: string | null,
  relayUrl: string,
): { connect: string[]; frame: string[] } | null {
  if (!projectId) return null;
  const relay = relayConnectSource(relayUrl);
  return { connect: relay ? [relay] : [], frame: [WC_VERIFY_ORIGIN] };
}

/**
 * Whether a page whose connect-src was widened by `sources` (from solanaConnectSources) may
 * fetch `rpcUrl`: any https RPC, or an http one whose origin the server named.
 */
export function connectAllows(sources: readonly string[], rpcUrl: string): boolean {
  const url = parseRpcUrl(rpcUrl);
  if (!url) return false;
  const { protocol, origin } = new URL(url);
  return sources.includes(protocol) || sources.includes(origin);
}
