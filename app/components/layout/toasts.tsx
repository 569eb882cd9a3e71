import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ToastContainer, toast } from "react-toastify/unstyled";
// Bundled by Vite into the page's stylesheet (a <link>), not injected at run time.
import "react-toastify/ReactToastify.css";
import type { FlashMessage } from "../../lib/flash.ts";

/** Spec 9: 5000 ms, at most 20, removed when dragged past 60 % of the width. */
export const TOAST_AUTO_CLOSE_MS = 5_000;
export const TOAST_LIMIT = 20;
export const TOAST_DRAG_PERCENT = 60;

/** Follows the `dark` class on <html> (set by the theme toggle and its boot script). */
function useDarkClass(): boolean {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    const root = document.documentElement;
    const update = () => setDark(root.classList.contains("dark"));
    update();
    const observer = new MutationObserver(update);
    observer.observe(root, { attributes: true, attributeFilter: ["class"] });
    return () => observer.disconnect();
  }, []);
  return dark;
}

/**
 * The toast container, and the one-time message an action left for this page. With
 * JavaScript it is a toast; without, the server-rendered status line stays. The first
 * client render equals the server's (both show the line), so hydration matches; the
 * line goes away and the toast appears once the page is interactive.
 */
export function Toasts({ flash }: { flash: FlashMessage | null }) {
  const { t } = useTranslation();
  const [interactive, setInteractive] = useState(false);
  const shown = useRef<string | null>(null);

  useEffect(() => setInteractive(true), []);
  const dark = useDarkClass();

  useEffect(() => {
    if (!flash || shown.current === flash.id) return;
    shown.current = flash.id;
    // A key may name its namespace (`editor:flash.saved`); every key is listed in FLASH_KEYS.
    toast(t(flash.key as "flash.signedIn"), {
      type: flash.kind,
      toastId: flash.id,
      role: flash.kind === "error" ? "alert" : "status",
    });
  }, [flash, t]);

  return (
    <>
      <ToastContainer
        position="top-right"
        autoClose={TOAST_AUTO_CLOSE_MS}
        limit={TOAST_LIMIT}
        newestOnTop
        closeOnClick
        draggable
        draggablePercent={TOAST_DRAG_PERCENT}
        pauseOnHover
        pauseOnFocusLoss
        theme={dark ? "dark" : "light"}
        aria-label={t("toasts.label")}
        closeButton={({ closeToast }) => (
          <button
            type="button"
            className="Toastify__close-button"
            aria-label={t("toasts.close")}
            onClick={(event) => {
              event.stopPropagation();
              closeToast(true);
            }}
          >
            <span aria-hidden="true">×</span>
          </button>
        )}
      />
      {flash && !interactive && (
        <div className="mx-auto max-w-4xl px-4 pt-4">
          <p
            role="status"
            data-testid="flash-message"
            data-kind={flash.kind}
            className="rounded-md border border-zinc-300 bg-zinc-50 px-4 py-2 dark:border-zinc-700 dark:bg-zinc-900"
          >
            {t(flash.key as "flash.signedIn")}
          </p>
        </div>
      )}
    </>
  );
}
