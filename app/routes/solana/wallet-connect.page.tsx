import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import { shortAddress } from "../../lib/solana/address.ts";
import { wcErrorCode } from "../../lib/solana/walletconnect.ts";
import type { loader as rootLoader } from "../../root.tsx";
import { AccountBalances, SendSol, SignMessage } from "../../solana/account-tools.tsx";
import { useSolana } from "../../solana/solana-context.tsx";
import { type Failure, Status, ToolPage, useFailures } from "../../solana/ui.tsx";
import type { WalletConnectController, WcSession } from "../../solana/walletconnect-client.ts";
import type { Route } from "./+types/wallet-connect";

type ClientModule = typeof import("../../solana/walletconnect-client.ts");

type Phase =
  | { kind: "starting" }
  | { kind: "idle" }
  | { kind: "waiting"; uri: string }
  | { kind: "connected"; session: WcSession }
  | { kind: "over"; reason: "rejected" | "expired" | "ended" | "noAccount" | "failed"; error?: Failure };

/** How long Disconnect waits for the client to forget the session before the page moves on. */
const DISCONNECT_WAIT_MS = 5_000;
export default function WalletConnectPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("solana");
  return (
    <ToolPage>
      {loaderData ? (
        <WalletConnectSession projectId={loaderData.projectId} relayUrl={loaderData.relayUrl} />
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
    </ToolPage>
  );
}

function WalletConnectSession({ projectId, relayUrl }: { projectId: string; relayUrl: string }) {
  const { t } = useTranslation("solana");
  const { network, chain } = useSolana();
  const siteName = useRouteLoaderData<typeof rootLoader>("root")?.site.name ?? "Inkwell";
  const [phase, setPhase] = useState<Phase>({ kind: "starting" });
  const [client, setClient] = useState<{ module: ClientModule; controller: WalletConnectController } | null>(null);
  const [paid, setPaid] = useState(0);
  const fail = useFailures();
  /** Counts pairings, so the answer to an abandoned one is ignored. */
  const attempt = useRef(0);
  const description = t("walletConnect.siteDescription");

  // The sign client loads only here, after hydration; a session kept in the browser comes back.
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const module = await import("../../solana/walletconnect-client.ts");
        const controller = await module.startWalletConnect({ projectId, relayUrl, name: siteName, description });
        if (cancelled) return;
        setClient({ module, controller });
        const session = controller.current();
        setPhase(session ? { kind: "connected", session } : { kind: "idle" });
      } catch (error) {
        if (!cancelled) setPhase({ kind: "over", reason: "failed", error: fail.error(error) });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [projectId, relayUrl, siteName, description, fail]);

  useEffect(() => {
    if (!client) return;
    return client.controller.onEnded((topic) => {
      setPhase((current) =>
        current.kind === "connected" && current.session.topic === topic ? { kind: "over", reason: "ended" } : current,
      );
    });
  }, [client]);

  const pair = useCallback(async () => {
    if (!client) return;
    const mine = ++attempt.current;
    setPhase({ kind: "starting" });
    try {
      const { uri, approval } = await client.controller.pair(network);
      if (mine !== attempt.current) return;
      setPhase({ kind: "waiting", uri });
      const session = await approval;
      if (mine !== attempt.current) return;
      if (session.accounts.length === 0) {
        await client.controller.disconnect(session.topic).catch(() => {});
        setPhase({ kind: "over", reason: "noAccount" });
        return;
      }
      setPhase({ kind: "connected", session });
    } catch (error) {
      if (mine !== attempt.current) return;
      const code = wcErrorCode(error);
      setPhase(
        code === "rejected" || code === "expired"
          ? { kind: "over", reason: code }
          : { kind: "over", reason: "failed", error: fail.error(error) },
      );
    }
  }, [client, network, fail]);

  const disconnect = useCallback(async () => {
    if (!client || phase.kind !== "connected") return;
    attempt.current++;
    const { topic } = phase.session;
    // Idle once the client has forgotten the session: its store is written before disconnect
    // returns, and a reload in between brought the session back. A relay that never answers
    // holds the page at most DISCONNECT_WAIT_MS.
    await Promise.race([
      client.controller.disconnect(topic).catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, DISCONNECT_WAIT_MS)),
    ]);
    setPhase({ kind: "idle" });
  }, [client, phase]);

  const signer = useMemo(
    () =>
      client && phase.kind === "connected"
        ? client.module.sessionWallet(client.controller, phase.session, network)
        : null,
    [client, phase, network],
  );

  const buttonClass = "rounded border border-zinc-400 px-3 py-1";
  return (
    <div className="space-y-6">
      <section aria-label={t("walletConnect.status")} data-testid="wc-state" className="space-y-3">
        {phase.kind === "starting" && <p>{t("walletConnect.starting")}</p>}
        {phase.kind === "idle" && (
          <>
            <p>{t("walletConnect.idle")}</p>
            <button
              type="button"
              className="rounded bg-zinc-900 px-4 py-2 text-white dark:bg-zinc-100 dark:text-zinc-900"
              onClick={() => void pair()}
            >
              {t("walletConnect.connect")}
            </button>
          </>
        )}
        {phase.kind === "waiting" && client && <Pairing uri={phase.uri} module={client.module} />}
        {phase.kind === "connected" && (
          <div className="space-y-2">
            <p role="status">{t("walletConnect.connected", { wallet: phase.session.peerName })}</p>
            {signer && (
              <p>
                {t("walletConnect.account", { address: shortAddress(signer.address, 6) })}{" "}
                <span className="sr-only">{signer.address}</span>
              </p>
            )}
            <p className="text-sm">{t("walletConnect.approveOnPhone")}</p>
            <button type="button" className={buttonClass} onClick={() => void disconnect()}>
              {t("walletConnect.disconnect")}
            </button>
          </div>
        )}
        {phase.kind === "over" && (
          <div className="space-y-2">
            <Status
              message={
                phase.reason === "failed"
                  ? t("walletConnect.failed", { error: phase.error?.message ?? "" })
                  : t(`walletConnect.${phase.reason}`)
              }
              detail={phase.reason === "failed" ? phase.error?.detail : undefined}
              error
            />
            {client && (
              <button type="button" className={buttonClass} onClick={() => void pair()}>
                {t("walletConnect.retry")}
              </button>
            )}
          </div>
        )}
      </section>
      {phase.kind === "connected" && !signer && <Status message={t("walletConnect.noAccount")} error />}
      {signer && (
        <>
          <AccountBalances address={signer.address} refresh={paid} />
          <SignMessage wallet={signer.wallet} account={signer.account} address={signer.address} />
          <SendSol
            wallet={signer.wallet}
            account={signer.account}
            address={signer.address}
            chain={chain}
            onSent={() => setPaid((n) => n + 1)}
          />
        </>
      )}
    </div>
  );
}

/** The pairing URI as a QR code, as copyable text, and as a link a phone's wallet opens. */
function Pairing({ uri, module }: { uri: string; module: ClientModule }) {
  const { t } = useTranslation("solana");
  const [copied, setCopied] = useState(false);
  const qr = useMemo(() => module.qrModules(uri), [module, uri]);
  const quiet = 4;
  const side = qr.size + 2 * quiet;
  let path = "";
  qr.dark.forEach((dark, i) => {
    if (dark) path += `M${(i % qr.size) + quiet} ${Math.floor(i / qr.size) + quiet}h1v1h-1z`;
  });
  return (
    <div className="space-y-3">
      <p role="status">{t("walletConnect.waiting")}</p>
      <svg
        role="img"
        aria-label={t("walletConnect.qr")}
        viewBox={`0 0 ${side} ${side}`}
        width={264}
        height={264}
        shapeRendering="crispEdges"
        data-testid="wc-qr"
      >
        <rect width={side} height={side} fill="#fff" />
        <path d={path} fill="#000" />
      </svg>
      <div className="space-y-1 text-sm">
        <p>{t("walletConnect.uri")}</p>
        <code data-testid="wc-uri" className="block max-w-full break-all rounded bg-zinc-100 p-2 dark:bg-zinc-900">
          {uri}
        </code>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className="rounded border border-zinc-400 px-2 py-1"
            onClick={() => {
              void navigator.clipboard?.writeText(uri).then(
                () => setCopied(true),
                () => setCopied(false),
              );
            }}
          >
            {t("walletConnect.copyUri")}
          </button>
          <a href={uri} className="rounded border border-zinc-400 px-2 py-1 underline">
            {t("walletConnect.open")}
          </a>
        </div>
        <p aria-live="polite" className="min-h-5">
          {copied ? t("walletConnect.copied") : ""}
        </p>
      </div>
    </div>
  );
}
