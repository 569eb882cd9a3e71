import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AccountBalances, SendSol, SignMessage } from "../../solana/account-tools.tsx";
import { useSolana } from "../../solana/solana-context.tsx";
import { ToolPage } from "../../solana/ui.tsx";

export default function PhantomPage() {
  const { t } = useTranslation("solana");
  const { wallets, wallet, account, address, connect, connecting, chain } = useSolana();
  const phantom = wallets?.find((w) => w.name === "Phantom") ?? null;
  const [paid, setPaid] = useState(0);

  return (
    <ToolPage className="space-y-6">
      {wallets === null ? (
        <p>{t("wallet.looking")}</p>
      ) : !phantom ? (
        <p>
          {t("phantom.notFound")}{" "}
          <a href="https://phantom.app/download" target="_blank" rel="noreferrer" className="underline">
            {t("phantom.download")}
          </a>
        </p>
      ) : wallet?.name !== "Phantom" ? (
        <button
          type="button"
          disabled={connecting}
          className="rounded bg-zinc-900 px-4 py-2 text-white dark:bg-zinc-100 dark:text-zinc-900"
          onClick={() => void connect(phantom)}
        >
          {t("wallet.connect", { wallet: "Phantom" })}
        </button>
      ) : null}
      {address && wallet && account && (
        <>
          <AccountBalances address={address} refresh={paid} />
          <SignMessage wallet={wallet} account={account} address={address} />
          <SendSol
            wallet={wallet}
            account={account}
            address={address}
            chain={chain}
            onSent={() => setPaid((n) => n + 1)}
          />
        </>
      )}
    </ToolPage>
  );
}
