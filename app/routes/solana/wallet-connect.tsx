import { lazy } from "react";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { solanaTitle } from "../../solana/i18n.ts";
import type { SolanaToolHandle } from "../../solana/ui.tsx";
import type { Route } from "./+types/wallet-connect";
import ClientPage from "./wallet-connect.page.client.ts";

// The page itself is in wallet-connect.page.tsx: wallet code (@solana/kit, the Wallet Standard) that the
// server would otherwise load at boot for every blog. The browser imports it with this module,
// as before (through the .client module, which the server build leaves empty); the server
// imports it the first time it renders the page (decision 024, "Memory and uncached speed").
const Page = import.meta.env.SSR ? lazy(() => import("./wallet-connect.page.tsx")) : ClientPage;

export const handle: SolanaToolHandle = { solanaTool: { title: "walletConnect.title", intro: "walletConnect.intro" } };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, solanaTitle(matches, "walletConnect"), [NOINDEX]);
}

/** The project id and relay, or null while WalletConnect is off (no project id). */
export function loader({ context }: Route.LoaderArgs) {
  const { env } = getApp(context);
  return env.walletConnectProjectId
    ? { projectId: env.walletConnectProjectId, relayUrl: env.walletConnectRelayUrl }
    : null;
}

export default function WalletConnectPage(props: Route.ComponentProps) {
  return <Page {...props} />;
}
