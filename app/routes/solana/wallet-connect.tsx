import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { solanaTitle } from "../../solana/i18n.ts";
import type { Route } from "./+types/wallet-connect";
import type { loader as layoutLoader } from "./layout.tsx";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, solanaTitle(matches, "walletConnect"), [NOINDEX]);
}

/** The layout's data under whichever of its three ids (/, /en, /zh) matched. */
function useLayoutData() {
  const plain = useRouteLoaderData<typeof layoutLoader>("routes/solana/layout");
  const en = useRouteLoaderData<typeof layoutLoader>("routes/solana/layout-en");
  const zh = useRouteLoaderData<typeof layoutLoader>("routes/solana/layout-zh");
  return plain ?? en ?? zh;
}

export default function WalletConnectPage() {
  const { t } = useTranslation("solana");
  const enabled = useLayoutData()?.walletConnectEnabled ?? false;
  return (
    <section aria-labelledby="wc-title" className="space-y-4">
      <h1 id="wc-title" className="text-2xl font-bold">
        {t("walletConnect.title")}
      </h1>
      <p>{t("walletConnect.intro")}</p>
      {enabled ? (
        <p data-testid="wc-state">{t("walletConnect.notBuilt")}</p>
      ) : (
        <div data-testid="wc-state" className="space-y-2">
          <p>{t("walletConnect.disabled")}</p>
          <ol className="list-decimal space-y-1 pl-6">
            <li>{t("walletConnect.step1")}</li>
            <li>
              {t("walletConnect.step2")} <code>WALLETCONNECT_PROJECT_ID=…</code>
            </li>
            <li>{t("walletConnect.step3")}</li>
          </ol>
        </div>
      )}
    </section>
  );
}
