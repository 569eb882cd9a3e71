import { lazy } from "react";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { solanaTitle } from "../../solana/i18n.ts";
import type { SolanaToolHandle } from "../../solana/ui.tsx";
import type { Route } from "./+types/transfer-batch";
import ClientPage from "./transfer-batch.page.client.ts";

// The page itself is in transfer-batch.page.tsx: wallet code (@solana/kit, the Wallet Standard) that the
// server would otherwise load at boot for every blog. The browser imports it with this module,
// as before (through the .client module, which the server build leaves empty); the server
// imports it the first time it renders the page (decision 024, "Memory and uncached speed").
const Page = import.meta.env.SSR ? lazy(() => import("./transfer-batch.page.tsx")) : ClientPage;

export const handle: SolanaToolHandle = { solanaTool: { title: "batch.title", intro: "batch.intro" } };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, solanaTitle(matches, "batch"), [NOINDEX]);
}

export default function TransferBatch() {
  return <Page />;
}
