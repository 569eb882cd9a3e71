import { useTranslation } from "react-i18next";
import { Link } from "../../lean/link.tsx";
import { useLocalePrefix } from "../../lib/i18n/use-locale-prefix.ts";
import { ToolPage } from "../../solana/ui.tsx";

const TOOLS = [
  { path: "closeToken", name: "nav.closeToken", text: "home.closeToken" },
  { path: "transferBatch", name: "nav.transferBatch", text: "home.transferBatch" },
  { path: "PhantomWallet", name: "nav.phantom", text: "home.phantom" },
  { path: "WalletConnect", name: "nav.walletConnect", text: "home.walletConnect" },
] as const;

export default function SolanaHome() {
  const { t } = useTranslation("solana");
  const prefix = useLocalePrefix();
  return (
    <ToolPage>
      <ul className="grid gap-3 sm:grid-cols-2">
        {TOOLS.map((tool) => (
          <li key={tool.path} className="rounded border border-zinc-300 p-3 dark:border-zinc-700">
            <Link to={`${prefix}/solana/${tool.path}`} className="font-semibold underline">
              {t(tool.name)}
            </Link>
            <p className="text-sm">{t(tool.text)}</p>
          </li>
        ))}
      </ul>
    </ToolPage>
  );
}
