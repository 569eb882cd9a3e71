import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ToastContainer, toast } from "react-toastify/unstyled";
// Bundled by Vite into this chunk's stylesheet (a <link> added when the chunk loads).
import "react-toastify/ReactToastify.css";
import "./toast-host.css";
import type { FlashMessage } from "../../lib/flash.ts";

/** Spec 9: 5000 ms, at most 20, removed when dragged past 60 % of the width. */
export const TOAST_AUTO_CLOSE_MS = 5_000;
export const TOAST_LIMIT = 20;
export const TOAST_DRAG_PERCENT = 60;

/**
 * Follows the `dark` class on <html> (set by the theme toggle and its boot script).
 * This component only ever renders in the browser, so it reads the class at once:
 * the first toast must already have the right theme.
 */
function useDarkClass(): boolean {
  const [dark, setDark] = useState(() => document.documentElement.classList.contains("dark"));
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
 * The toast container (react-toastify), loaded only once a page has a message to
 * show: most page views have none, so they never download it. It shows each flash
 * message once and says when it is on screen, so the page can drop its status line.
 */
export default function ToastHost({ flash, onReady }: { flash: FlashMessage | null; onReady: () => void }) {
  const { t } = useTranslation();
  const shown = useRef<string | null>(null);
  const dark = useDarkClass();

  useEffect(() => {
    if (!flash || shown.current === flash.id) return;
    shown.current = flash.id;
    // A key may name its namespace (the editor's flash.saved does); every key is listed in FLASH_KEYS.
    toast(t(flash.key as "flash.signedIn"), {
      type: flash.kind,
      toastId: flash.id,
      role: flash.kind === "error" ? "alert" : "status",
    });
    onReady();
  }, [flash, t, onReady]);

  return (
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
  );
}
