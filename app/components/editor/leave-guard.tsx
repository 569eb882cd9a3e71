import { useCallback, useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { type BlockerFunction, useBlocker } from "react-router";

/**
 * Warns before unsaved changes are left behind: the browser's own prompt when the
 * tab closes or reloads, and a confirm dialog for links inside the site. Saving
 * (a submission to this page and its redirect) is never blocked.
 */
export function LeaveGuard({ dirty, onLeave }: { dirty: boolean; onLeave(): void }) {
  const { t } = useTranslation("editor");
  const id = useId();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const onLeaveRef = useRef(onLeave);
  onLeaveRef.current = onLeave;

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      onLeaveRef.current();
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, []);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
    [],
  );
  const blocker = useBlocker(shouldBlock);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (blocker.state === "blocked") {
      onLeaveRef.current();
      if (!el.open) el.showModal();
    } else if (el.open) {
      el.close();
    }
  }, [blocker.state]);

  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault();
        blocker.reset?.();
      }}
      className="m-auto max-w-md rounded-lg border border-zinc-300 bg-white p-6 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {t("leave.title")}
      </h2>
      <p id={`${id}-body`} className="mt-2 text-sm">
        {t("leave.body")}
      </p>
      <div className="mt-5 flex flex-wrap justify-end gap-3">
        <button
          type="button"
          // biome-ignore lint/a11y/noAutofocus: the safe choice gets focus when the dialog opens
          autoFocus
          onClick={() => blocker.reset?.()}
          className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600/50"
        >
          {t("leave.stay")}
        </button>
        <button
          type="button"
          onClick={() => blocker.proceed?.()}
          className="rounded-md border border-zinc-300 px-4 py-2 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          {t("leave.leave")}
        </button>
      </div>
    </dialog>
  );
}
