import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../../server/http/security.server.ts";
import {
  connectAllows,
  explorerTxUrl,
  networkOfUrl,
  parseRelayUrl,
  parseRpcUrl,
  RPC_COOKIE,
  relayConnectSource,
  rpcFromCookie,
  solanaConnectSources,
  WC_VERIFY_ORIGIN,
  walletConnectSources,
} from "./network.ts";

const connectSrc = (csp: string) => csp.split("; ").find((d) => d.startsWith("connect-src"));

describe("solana network helpers", () => {
  it("accepts only http(s) RPC URLs without credentials", () => {
    expect(parseRpcUrl(" https://rpc.example.com ")).toBe("https://rpc.example.com/");
    expect(parseRpcUrl("http://127.0.0.1:8899")).toBe("http://127.0.0.1:8899/");
    expect(parseRpcUrl("javascript:alert(1)")).toBeNull();
    expect(parseRpcUrl("wss://rpc.example.com")).toBeNull();
    expect(parseRpcUrl("https://user:pw@rpc.example.com")).toBeNull();
    expect(parseRpcUrl("not a url")).toBeNull();
  });

  it("knows the public clusters and links the explorer to the right one", () => {
    expect(networkOfUrl("https://api.devnet.solana.com/")).toBe("devnet");
    expect(networkOfUrl("https://api.mainnet-beta.solana.com")).toBe("mainnet-beta");
    expect(networkOfUrl("http://127.0.0.1:8899/")).toBe("custom");
    expect(explorerTxUrl("abc", "https://api.mainnet-beta.solana.com")).toBe("https://explorer.solana.com/tx/abc");
    expect(explorerTxUrl("abc", "https://api.devnet.solana.com")).toMatch(/\?cluster=devnet$/);
    expect(explorerTxUrl("abc", "http://127.0.0.1:8899/")).toContain("customUrl=http%3A%2F%2F127.0.0.1%3A8899%2F");
  });

  it("refuses RPC and relay URLs whose host could end a CSP directive (issue 19, finding 5)", () => {
    for (const hostile of [
      "http://x;sandbox",
      "http://host;frame-ancestors",
      "https://a*b.example",
      "http://a'b",
      "http://a,b.example",
      "http://under_score.example",
    ]) {
      expect(parseRpcUrl(hostile), hostile).toBeNull();
      expect(parseRelayUrl(hostile.replace(/^https?/, "wss")), hostile).toBeNull();
      expect(rpcFromCookie(`${RPC_COOKIE}=${encodeURIComponent(hostile)}`), hostile).toBeNull();
      expect(solanaConnectSources("https://api.mainnet-beta.solana.com", hostile)).toEqual(["https:", "wss:"]);
    }
    expect(parseRpcUrl("http://[::1]:8899")).toBe("http://[::1]:8899/");
    expect(parseRpcUrl("https://xn--fiq228c.example")).toBe("https://xn--fiq228c.example/");
    expect(parseRpcUrl("https://中文.example")).toBe("https://xn--fiq228c.example/");
    expect(parseRpcUrl("http://localhost:8899")).toBe("http://localhost:8899/");
  });

  it("reads the custom RPC cookie, refusing anything but http(s)", () => {
    const cookie = (v: string) => `a=1; ${RPC_COOKIE}=${encodeURIComponent(v)}; b=2`;
    expect(rpcFromCookie(cookie("http://127.0.0.1:8899"))).toBe("http://127.0.0.1:8899/");
    expect(rpcFromCookie(cookie("data:text/html,x"))).toBeNull();
    expect(rpcFromCookie(`${RPC_COOKIE}=%E0%A4%A`)).toBeNull();
    expect(rpcFromCookie(undefined)).toBeNull();
  });

  it("widens connect-src only by the RPC origins, never by a directive", () => {
    const sources = solanaConnectSources("https://api.mainnet-beta.solana.com", "http://127.0.0.1:8899/x?y=1");
    expect(sources).toEqual(["https:", "wss:", "http://127.0.0.1:8899", "ws://127.0.0.1:8899"]);
    // An injection attempt cannot survive URL parsing into the header.
    const hostile = solanaConnectSources("https://a.example", "http://evil.example;script-src *");
    expect(hostile.join(" ")).not.toContain(";");
    expect(connectSrc(contentSecurityPolicy("n", { dev: false, connectExtra: sources }))).toBe(
      "connect-src 'self' https: wss: http://127.0.0.1:8899 ws://127.0.0.1:8899",
    );
    expect(connectSrc(contentSecurityPolicy("n", { dev: false }))).toBe("connect-src 'self'");
  });

  it("tells whether the page's connect-src lets it reach an RPC", () => {
    const sources = solanaConnectSources("https://api.mainnet-beta.solana.com", "http://127.0.0.1:8899/");
    expect(connectAllows(sources, "https://rpc.example/")).toBe(true);
    expect(connectAllows(sources, "http://127.0.0.1:8899/")).toBe(true);
    // The cookie named another port, or none: the page must load again to reach it.
    expect(connectAllows(sources, "http://127.0.0.1:9000/")).toBe(false);
    expect(connectAllows(solanaConnectSources("https://api.devnet.solana.com", null), "http://127.0.0.1:8899/")).toBe(
      false,
    );
    expect(connectAllows(sources, "not a url")).toBe(false);
  });

  it("accepts only ws(s) relay URLs without credentials, and allows just the relay's origin", () => {
    expect(parseRelayUrl(" wss://relay.walletconnect.org/ ")).toBe("wss://relay.walletconnect.org");
    expect(parseRelayUrl("ws://127.0.0.1:4100")).toBe("ws://127.0.0.1:4100");
    expect(parseRelayUrl("https://relay.walletconnect.org")).toBeNull();
    expect(parseRelayUrl("wss://me:secret@relay.example")).toBeNull();
    expect(parseRelayUrl("relay")).toBeNull();
    expect(relayConnectSource("ws://127.0.0.1:4100/path?x=1")).toBe("ws://127.0.0.1:4100");
    expect(relayConnectSource("wss://relay.example:443")).toBe("wss://relay.example");
    expect(relayConnectSource("javascript:alert(1)")).toBeNull();
  });

  it("names WalletConnect sources only with a project id, and a frame-src only then", () => {
    expect(walletConnectSources(null, "ws://127.0.0.1:4100")).toBeNull();
    const wc = walletConnectSources("abcdef123456", "ws://127.0.0.1:4100");
    expect(wc).toEqual({ connect: ["ws://127.0.0.1:4100"], frame: [WC_VERIFY_ORIGIN] });
    const csp = contentSecurityPolicy("n", { dev: false, connectExtra: wc?.connect, frameExtra: wc?.frame });
    expect(connectSrc(csp)).toBe("connect-src 'self' ws://127.0.0.1:4100");
    expect(csp).toContain(`frame-src ${WC_VERIFY_ORIGIN};`);
    expect(contentSecurityPolicy("n", { dev: false })).not.toContain("frame-src");
  });
});
