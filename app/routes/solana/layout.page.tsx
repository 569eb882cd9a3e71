import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useMatches } from "react-router";
import { NavLink } from "../../lean/link.tsx";
import { addRegisteredStrings } from "../../lib/i18n/i18n.ts";
import { useLocalePrefix } from "../../lib/i18n/use-locale-prefix.ts";
import { shortAddress } from "../../lib/solana/address.ts";
import { PUBLIC_RPC } from "../../lib/solana/network.ts";
import "../../solana/i18n.ts";
import { SolanaProvider, useSolana } from "../../solana/solana-context.tsx";
import { Details, isSolanaToolHandle, TOOL_TITLE_ID } from "../../solana/ui.tsx";
import type { Route } from "./+types/layout";

const TOOLS = [
  { path: "closeToken", key: "nav.closeToken" },
  { path: "transferBatch", key: "nav.transferBatch" },
  { path: "PhantomWallet", key: "nav.phantom" },
  { path: "WalletConnect", key: "nav.walletConnect" },
] as const;

export default function SolanaLayout({ loaderData }: Route.ComponentProps) {
  const { i18n } = useTranslation();
  // Before any string of the namespace is read (server and browser alike).
  addRegisteredStrings(i18n);
  const { t } = useTranslation("solana");
  const prefix = useLocalePrefix();
  // The page's own heading and purpose come first, before the tools' tabs, the warning and the network.
  const page = useMatches().findLast((m) => isSolanaToolHandle(m.handle))?.handle;
  const tool = isSolanaToolHandle(page) ? page.solanaTool : undefined;
  return (
    <SolanaProvider defaultRpc={loaderData.defaultRpc} connectSources={loaderData.connectSources}>
      <div className="mx-auto max-w-4xl space-y-6">
        <header className="space-y-3">
          {tool && tool.title !== "title" && (
            <p className="text-sm">
              <NavLink to={`${prefix}/solana`} end className="font-semibold underline-offset-2 hover:underline">
                {t("title")}
              </NavLink>
            </p>
          )}
          {tool && (
            <>
              <h1 id={TOOL_TITLE_ID} className="text-2xl font-bold">
                {t(tool.title)}
              </h1>
              <p>{t(tool.intro)}</p>
            </>
          )}
          <nav aria-label={t("nav.label")}>
            <ul className="flex flex-wrap gap-3 text-sm">
              {TOOLS.map((tool) => (
                <li key={tool.path}>
                  <NavLink
                    to={`${prefix}/solana/${tool.path}`}
                    className={({ isActive }) =>
                      `rounded border px-2 py-1 ${isActive ? "border-zinc-900 font-semibold dark:border-zinc-100" : "border-zinc-300 dark:border-zinc-700"}`
                    }
                  >
                    {t(tool.key)}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <p
            role="note"
            className="rounded border border-amber-500 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100"
          >
            {t("warning")}
          </p>
          <div className="flex flex-wrap items-start gap-6">
            <NetworkPicker />
            <WalletPanel />
          </div>
        </header>
        <Outlet />
      </div>
    </SolanaProvider>
  );
}

function NetworkPicker() {
  const { t } = useTranslation("solana");
  const { rpcUrl, network, chooseRpc } = useSolana();
  const [choice, setChoice] = useState<string>(network);
  const [custom, setCustom] = useState(network === "custom" ? rpcUrl : "");
  const [invalid, setInvalid] = useState(false);
  const id = useId();
  useEffect(() => {
    setChoice(network);
    if (network === "custom") setCustom(rpcUrl);
  }, [network, rpcUrl]);
  return (
    <form
      className="space-y-2 text-sm"
      aria-label={t("network.label")}
      onSubmit={(event) => {
        event.preventDefault();
        if (choice === "custom") {
          try {
            const url = new URL(custom.trim());
            if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("protocol");
            setInvalid(false);
            chooseRpc(url.toString());
          } catch {
            setInvalid(true);
          }
        } else if (choice === "mainnet-beta" || choice === "devnet") {
          chooseRpc(PUBLIC_RPC[choice]);
        }
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1">
          <span>{t("network.label")}</span>
          <select
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          >
            <option value="mainnet-beta">{t("network.mainnet")}</option>
            <option value="devnet">{t("network.devnet")}</option>
            <option value="custom">{t("network.custom")}</option>
          </select>
        </label>
        {choice === "custom" && (
          <label className="flex flex-col gap-1">
            <span>{t("network.customUrl")}</span>
            <input
              type="url"
              value={custom}
              onChange={(e) => setCustom(e.target.value)}
              placeholder="https://"
              aria-invalid={invalid}
              aria-describedby={invalid ? `${id}-error` : undefined}
              className="w-72 rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
            />
          </label>
        )}
        <button type="submit" className="rounded border border-zinc-400 px-3 py-1">
          {t("network.apply")}
        </button>
      </div>
      {invalid && (
        <p id={`${id}-error`} className="text-red-700 dark:text-red-400">
          {t("network.invalidUrl")}
        </p>
      )}
      <p className="text-zinc-600 dark:text-zinc-400">
        {t("network.current")} <code data-testid="rpc-url">{rpcUrl}</code>
      </p>
    </form>
  );
}

function WalletPanel() {
  const { t } = useTranslation("solana");
  const { wallets, wallet, address, connect, disconnect, connecting, connectError } = useSolana();
  const [copied, setCopied] = useState(false);
  return (
    <section aria-label={t("wallet.label")} className="space-y-2 text-sm">
      {address && wallet ? (
        <div className="space-y-1">
          <p>
            {t("wallet.connectedWith", { wallet: wallet.name })}{" "}
            <code title={address} data-testid="wallet-address">
              {shortAddress(address, 6)}
            </code>
          </p>
          <div className="flex gap-2">
            <button
              type="button"
              className="rounded border border-zinc-400 px-2 py-1"
              onClick={() => {
                void navigator.clipboard?.writeText(address).then(
                  () => setCopied(true),
                  () => setCopied(false),
                );
              }}
            >
              {t("wallet.copy")}
            </button>
            <button
              type="button"
              className="rounded border border-zinc-400 px-2 py-1"
              onClick={() => void disconnect()}
            >
              {t("wallet.disconnect")}
            </button>
          </div>
        </div>
      ) : wallets === null ? (
        <p>{t("wallet.looking")}</p>
      ) : wallets.length === 0 ? (
        <p>{t("wallet.none")}</p>
      ) : (
        <ul className="flex flex-wrap gap-2">
          {wallets.map((w) => (
            <li key={w.name}>
              <button
                type="button"
                disabled={connecting}
                className="flex items-center gap-2 rounded border border-zinc-400 px-2 py-1"
                onClick={() => void connect(w)}
              >
                <img src={w.icon} alt="" width={16} height={16} />
                {t("wallet.connect", { wallet: w.name })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p aria-live="polite" className="min-h-5">
        {copied ? (
          t("wallet.copied")
        ) : connectError ? (
          <>
            {t("wallet.connectFailed", { error: t(`errors.${connectError.kind}`) })}
            <Details detail={connectError.detail} />
          </>
        ) : (
          ""
        )}
      </p>
    </section>
  );
}
