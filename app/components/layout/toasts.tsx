import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { FlashMessage } from "../../lib/flash.ts";

const ToastHost = lazy(() => import("./toast-host.tsx"));

/**
 * The one-time message an action left for this page. Without JavaScript it is a
 * status line in the page. With it, the toast container loads (the first time a
 * page has a message) and the message becomes a toast; the line stays until the
 * toast is up, so the message never disappears in between, and the first client
 * render equals the server's (both show the line), so hydration matches.
 */
export function Toasts({ flash }: { flash: FlashMessage | null }) {
  const { t } = useTranslation();
  const [interactive, setInteractive] = useState(false);
  // Once loaded, the container stays, so later messages (after navigations) use it.
  const [wanted, setWanted] = useState(false);
  const [toastedId, setToastedId] = useState<string | null>(null);

  useEffect(() => setInteractive(true), []);
  useEffect(() => {
    if (flash) setWanted(true);
  }, [flash]);
  const flashId = flash?.id ?? null;
  const onReady = useCallback(() => setToastedId(flashId), [flashId]);

  return (
    <>
      {wanted && (
        <Suspense fallback={null}>
          <ToastHost flash={flash} onReady={onReady} />
        </Suspense>
      )}
      {flash && !(interactive && toastedId === flash.id) && (
        <div className="mx-auto max-w-4xl px-4 pt-4">
          <p
            role="status"
            data-testid="flash-message"
            data-kind={flash.kind}
            data-flash=""
            data-close-label={t("toasts.close")}
            className="rounded-md border border-zinc-300 bg-zinc-50 px-4 py-2 dark:border-zinc-700 dark:bg-zinc-900"
          >
            {t(flash.key as "flash.signedIn")}
          </p>
        </div>
      )}
    </>
  );
}
