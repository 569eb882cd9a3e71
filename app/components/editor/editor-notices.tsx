import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Link } from "../../lean/link.tsx";
import { browserOffsetAt } from "../../lib/editor-values.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { Sparkline } from "../admin/line-chart.tsx";
import { BUTTON_SECONDARY, dateTimeFormatter, LINK } from "./editor-ui.ts";
import type { LocalDraft } from "./local-draft.ts";

// What the editor says about the post around the writing: which version readers see (with
// its own small forms to schedule or discard pending changes, outside the editor's form),
// and the post's readers.

export interface LiveState {
  /** When what readers see was saved. */
  savedAt: string;
  pendingAt: string | null;
  compareHref: string | null;
  /** When the pending changes are scheduled to go live; null: on Update only. */
  scheduledFor: string | null;
}

export interface ReadersState {
  days: number;
  views: number;
  daily: number[];
}

/**
 * "Publish these changes at": a time in the browser's zone (UTC without JavaScript, as the
 * publish time); the scheduled publisher applies the changes then.
 */
function ScheduleUpdateForm({ version }: { version: number }) {
  const { t } = useTranslation("editor");
  const id = useId();
  const tzRef = useRef<HTMLInputElement>(null);
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="schedule" />
      <input type="hidden" name="version" value={version} />
      <input ref={tzRef} type="hidden" name="updateAtTz" defaultValue="0" />
      <div>
        <label htmlFor={id} className="block font-medium">
          {t("live.scheduleAt")}
        </label>
        <input
          id={id}
          type="datetime-local"
          name="updateAtLocal"
          required
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            if (tzRef.current) tzRef.current.value = String(browserOffsetAt(e.target.value));
          }}
          className="mt-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        />
        <p id={`${id}-hint`} className="mt-1">
          {t("live.scheduleHint")}
        </p>
      </div>
      <button type="submit" className={BUTTON_SECONDARY}>
        {t("live.schedule")}
      </button>
    </Form>
  );
}

/** The post's readers in a small box: its views over the last days, and the way to the full page. */
export function Readers({ postId, readers }: { postId: string; readers: ReadersState }) {
  const { t } = useTranslation("editor");
  const id = useId();
  return (
    <aside
      aria-labelledby={id}
      className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border border-zinc-200 px-4 py-2 text-sm dark:border-zinc-800"
      data-testid="editor-readers"
    >
      <h2 id={id} className="font-semibold">
        {t("readers.title", { count: readers.days })}
      </h2>
      <span className="tabular-nums">{t("readers.views", { count: readers.views })}</span>
      <Sparkline values={readers.daily} />
      <Link to={`/admin/insights/posts/${postId}`} className={LINK}>
        {t("readers.more")}
      </Link>
    </aside>
  );
}

/** Which version readers see, and whether unpublished changes wait for Update. */
export function LiveNotice({ live, uiLocale, version }: { live: LiveState; uiLocale: Locale; version: number | null }) {
  const { t } = useTranslation("editor");
  const format = dateTimeFormatter(uiLocale, true);
  return (
    <div
      data-testid="live-notice"
      className="space-y-1 rounded-md border border-blue-300 bg-blue-50 px-4 py-3 text-sm text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100"
    >
      <p>{t("live.notice", { time: format(live.savedAt) })}</p>
      {live.pendingAt ? (
        <p>
          <strong>{t("live.pending", { time: format(live.pendingAt) })}</strong>{" "}
          {live.compareHref && (
            <Link to={live.compareHref} className={LINK}>
              {t("live.compare")}
            </Link>
          )}
        </p>
      ) : null}
      {live.pendingAt && version !== null ? (
        <>
          {live.scheduledFor && (
            <p data-testid="update-scheduled">{t("live.scheduled", { time: format(live.scheduledFor) })}</p>
          )}
          <ScheduleUpdateForm version={version} />
          <Form method="post">
            <input type="hidden" name="intent" value="discard" />
            <input type="hidden" name="version" value={version} />
            <button type="submit" className={BUTTON_SECONDARY}>
              {t("live.discard")}
            </button>
          </Form>
        </>
      ) : (
        <p>{t("live.noPending")}</p>
      )}
    </div>
  );
}

/** An unsaved draft this browser kept: restore it or discard it. */
export function DraftOffer(props: { offer: LocalDraft; time: string; onRestore(): void; onDiscard(): void }) {
  const { t } = useTranslation("editor");
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="w-full">{t("draft.found")}</p>
      <button type="button" className={BUTTON_SECONDARY} onClick={props.onRestore}>
        {t("draft.restore", { time: props.time })}
      </button>
      <button type="button" className={BUTTON_SECONDARY} onClick={props.onDiscard}>
        {t("draft.discard")}
      </button>
    </div>
  );
}
