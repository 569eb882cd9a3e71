import { lazy } from "react";
import { routePolicy } from "../../lib/route-policy.ts";
import { rpcFromCookie, solanaConnectSources } from "../../lib/solana/network.ts";
import { getApp } from "../../server/boot/context.server.ts";
import type { Route } from "./+types/layout";
import ClientPage from "./layout.page.client.ts";

// The page itself is in layout.page.tsx: wallet code (@solana/kit, the Wallet Standard) that the
// server would otherwise load at boot for every blog. The browser imports it with this module,
// as before (through the .client module, which the server build leaves empty); the server
// imports it the first time it renders the page (decision 024, "Memory and uncached speed").
const Page = import.meta.env.SSR ? lazy(() => import("./layout.page.tsx")) : ClientPage;

export const handle = routePolicy({ cache: "none", csp: "solana" });

export function loader({ request, context }: Route.LoaderArgs) {
  const { env } = getApp(context);
  // What this response's connect-src allows (the same sources the CSP header was given): the
  // page checks its stored RPC against it before using it.
  const connectSources = solanaConnectSources(env.solanaRpcUrl, rpcFromCookie(request.headers.get("cookie")));
  return { defaultRpc: env.solanaRpcUrl, connectSources };
}

export default function SolanaLayout(props: Route.ComponentProps) {
  return <Page {...props} />;
}
