import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * "Follow on the Fediverse" (issue 22): the Fediverse handle of the page's language, a copy
 * button and a hint. Shown only while federation is on. The button is an enhancement: it is
 * hidden in the markup and shown by whatever script runs on the page, React here on app pages,
 * the reader script (app/lean/reader.ts, by the `data-copy-text` attribute) on lean ones.
 */
export function FollowBox({ handle }: { handle: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const hintId = useId();
  const handleId = useId();
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    setReady(true);
    return () => window.clearTimeout(timer.current);
  }, []);
  const copy = () => {
    const done = () => {
      setCopied(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), 2000);
    };
    navigator.clipboard?.writeText(handle).then(done, () => {});
  };
  return (
    <section aria-labelledby={headingId} className="max-w-sm" data-testid="follow-box">
      <h2 id={headingId} className="mb-2 text-base font-semibold text-zinc-900 dark:text-zinc-100">
        {t("fediverse.follow.heading")}
      </h2>
      <p className="text-zinc-600 dark:text-zinc-400" id={hintId}>
        {t("fediverse.follow.hint")}
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <span className="sr-only">{t("fediverse.follow.handleLabel")}: </span>
        <code
          id={handleId}
          className="select-all break-all rounded bg-zinc-100 px-2 py-1 text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100"
          data-testid="fediverse-handle"
        >
          {handle}
        </code>
        <button
          type="button"
          hidden={!ready}
          onClick={copy}
          aria-describedby={handleId}
          data-copy-text={handle}
          data-copied={t("fediverse.follow.copied")}
          className="rounded-md border border-zinc-300 px-3 py-1 font-medium hover:bg-zinc-100 focus:outline-none focus:ring-2 focus:ring-blue-600/50 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          {copied ? t("fediverse.follow.copied") : t("fediverse.follow.copy")}
        </button>
        <span role="status" className="sr-only" data-copy-status="">
          {copied ? t("fediverse.follow.copied") : ""}
        </span>
      </div>
    </section>
  );
}
