import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { Link } from "../../lean/link.tsx";
import {
  NEWSLETTER_REFRESH_MS,
  type SendCounts,
  type SendStatus,
  sendProgress,
  titleFor,
} from "../../lib/admin-newsletter.ts";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";

/**
 * Reloads the page's data every NEWSLETTER_REFRESH_MS while `active`: each load schedules the
 * next, so a slow answer never stacks requests, and nothing runs once nothing moves.
 * Without JavaScript the page is simply as fresh as its last load.
 */
export function useLiveRefresh(active: boolean, data: unknown): void {
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new load (a new `data` object) schedules the next.
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => void revalidateRef.current(), NEWSLETTER_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [active, data]);
}

/** A send's post title in the admin's language, else the other (marked with its language), else "deleted". */
export function SendTitle({
  postId,
  titles,
  locale,
}: {
  postId: string;
  titles: { en: string | null; zh: string | null };
  locale: Locale;
}) {
  const { t } = useTranslation("adminNewsletter");
  const shown = titleFor(titles, locale);
  if (!shown) return <span className="text-zinc-600 dark:text-zinc-400">{t("sends.deletedPost")}</span>;
  return (
    <Link
      to={`/posts/detail/${postId}`}
      lang={shown.locale === locale ? undefined : HTML_LANG[shown.locale]}
      className="text-blue-800 underline dark:text-blue-300"
    >
      {shown.title}
    </Link>
  );
}

/** The plain-text title used in accessible names. */
export function useSendTitleText(titles: { en: string | null; zh: string | null }, locale: Locale): string {
  const { t } = useTranslation("adminNewsletter");
  return titleFor(titles, locale)?.title ?? t("sends.deletedPost");
}

/** A send's state in words: preparing, sending (mail still queued), finished or cancelled. */
export function SendStatusText({ status, counts }: { status: SendStatus; counts: SendCounts }) {
  const { t } = useTranslation("adminNewsletter");
  const key = status === "sending" && counts.queued === 0 ? "finished" : status;
  return <>{t(`sends.status.${key}`)}</>;
}

/** A bar of mails done (sent, failed or cancelled) out of the recipients, with its figures as text. */
export function SendProgressBar({
  label,
  recipients,
  counts,
}: {
  label: string;
  recipients: number;
  counts: SendCounts;
}) {
  const { t } = useTranslation("adminNewsletter");
  const { done, total, percent } = sendProgress(recipients, counts);
  const text = t("sends.progressText", { done, total, percent });
  return (
    <div className="flex min-w-40 items-center gap-2">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className="h-2.5 flex-1 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div className="h-full rounded-full bg-blue-700 dark:bg-blue-400" style={{ width: `${percent}%` }} />
      </div>
      <span className="text-xs whitespace-nowrap tabular-nums">{text}</span>
    </div>
  );
}
