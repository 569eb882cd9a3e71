import { type MouseEvent, type ReactNode, type RefObject, useEffect, useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "react-i18next";
import type { EditorValues } from "../../lib/editor-values.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { EDITOR_LOCALES, translationField } from "../../lib/schemas/post.ts";
import { mailedPerVersion, type PublishAudience, sharedPerVersion } from "../../lib/writing/publish-reach.ts";
import { BUTTON_SECONDARY, dateTimeFormatter } from "./editor-ui.ts";

// The primary action of the writing screen's bar and the dialog that comes before it goes
// live (issue 47): Save draft, Publish, Schedule, or for a live post Save and Update. Publishing,
// scheduling and updating first say what will happen (when it goes live, how many subscribers
// are e-mailed, how many Fediverse followers get it), then the author confirms or cancels.
// Without JavaScript the buttons simply submit the form.

export const PRIMARY =
  "rounded-md bg-blue-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600/50 disabled:opacity-60";

type Asking = { kind: "publish" | "schedule" | "update"; submitter: HTMLButtonElement | null; status: string | null };

/** The versions a post has: the languages whose title is written. */
export function versionsOf(values: EditorValues): Locale[] {
  return EDITOR_LOCALES.filter((l) => (values[translationField(l, "Title")] ?? "").trim() !== "");
}

/** Whether a publish time (the form's local value) is still to come. */
function isFuture(local: string | undefined): boolean {
  const at = local ? Date.parse(local) : Number.NaN;
  return Number.isFinite(at) && at > Date.now();
}

export function PublishActions(props: {
  values: EditorValues;
  /** The post is live (readers see a version): its changes are saved pending or updated. */
  live: boolean;
  busy: boolean;
  hydrated: boolean;
  newsletter: "offered" | "live" | "sent";
  audience: PublishAudience | null;
  uiLocale: Locale;
  form: RefObject<HTMLFormElement | null>;
  setStatus(status: string): void;
}) {
  const { t } = useTranslation("writing");
  const { t: te } = useTranslation("editor");
  const { values, busy } = props;
  const [asking, setAsking] = useState<Asking | null>(null);
  const status = values.status ?? "draft";

  /** Stops a submit that needs confirming, and asks instead. */
  const ask = (kind: Asking["kind"], nextStatus: string | null) => (event: MouseEvent<HTMLButtonElement>) => {
    if (!props.hydrated) return;
    event.preventDefault();
    setAsking({
      kind,
      submitter: event.currentTarget.type === "submit" ? event.currentTarget : null,
      status: nextStatus,
    });
  };
  const confirm = () => {
    const current = asking;
    if (!current) return;
    flushSync(() => {
      if (current.status) props.setStatus(current.status);
      setAsking(null);
    });
    props.form.current?.requestSubmit(current.submitter ?? undefined);
  };

  let buttons: ReactNode;
  if (props.live && status === "published") {
    buttons = (
      <>
        {/* The first button is Enter's: keeping changes pending is the safe default. */}
        <button type="submit" name="intent" value="save" disabled={busy} className={BUTTON_SECONDARY}>
          {te("live.save")}
        </button>
        <button
          type="submit"
          name="intent"
          value="update"
          disabled={busy}
          className={PRIMARY}
          onClick={ask("update", null)}
        >
          {te("live.update")}
        </button>
      </>
    );
  } else if (status === "draft" || props.live) {
    const future = isFuture(values.publishAtLocal);
    buttons = (
      <>
        <button type="submit" disabled={busy} className={props.hydrated && !props.live ? BUTTON_SECONDARY : PRIMARY}>
          {props.live ? t("bar.save") : t("bar.saveDraft")}
        </button>
        {props.hydrated && !props.live && (
          <button
            type="button"
            disabled={busy}
            className={PRIMARY}
            onClick={ask(future ? "schedule" : "publish", future ? "scheduled" : "published")}
          >
            {t("bar.publishEllipsis")}
          </button>
        )}
      </>
    );
  } else {
    const kind = status === "scheduled" ? "schedule" : "publish";
    buttons = (
      <button type="submit" disabled={busy} className={PRIMARY} onClick={ask(kind, null)}>
        {kind === "schedule" ? t("bar.schedule") : t("bar.publish")}
      </button>
    );
  }
  return (
    <>
      {buttons}
      {asking && (
        <PublishDialog
          kind={asking.kind}
          values={props.values}
          newsletter={props.newsletter}
          audience={props.audience}
          uiLocale={props.uiLocale}
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        />
      )}
    </>
  );
}

function PublishDialog(props: {
  kind: Asking["kind"];
  values: EditorValues;
  newsletter: "offered" | "live" | "sent";
  audience: PublishAudience | null;
  uiLocale: Locale;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation("writing");
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
    return () => el?.close();
  }, []);
  const { kind, values, audience } = props;
  const versions = versionsOf(values);
  const separator = t("publish.separator");
  const named = versions.map((l) => (l === "en" ? t("publish.english") : t("publish.chinese"))).join(separator);
  const detail = (counts: Record<Locale, number>) =>
    versions
      .map((l) =>
        l === "en" ? t("publish.inEnglish", { count: counts.en }) : t("publish.inChinese", { count: counts.zh }),
      )
      .join(separator);
  const lines: Array<{ key: string; text: string }> = [];
  if (kind === "update") lines.push({ key: "when", text: t("publish.updateNow", { versions: named }) });
  else if (kind === "schedule" && values.publishAtLocal)
    lines.push({
      key: "when",
      text: t("publish.at", {
        time: dateTimeFormatter(props.uiLocale, false)(Date.parse(values.publishAtLocal)),
        versions: named,
      }),
    });
  else lines.push({ key: "when", text: t("publish.now", { versions: named }) });

  if (kind === "update") lines.push({ key: "mail", text: t("publish.updateNoMail") });
  else if (props.newsletter !== "offered") lines.push({ key: "mail", text: t("publish.alreadyLive") });
  else if (values.newsletter !== "1") lines.push({ key: "mail", text: t("publish.notMailed") });
  else {
    const mailed = mailedPerVersion(audience?.subscribers ?? [], versions);
    const total = mailed.en + mailed.zh;
    lines.push({
      key: "mail",
      text: total === 0 ? t("publish.mailedNone") : t("publish.mailed", { count: total, detail: detail(mailed) }),
    });
  }

  const shared = sharedPerVersion(audience?.followers ?? null, versions, values.federate === "1");
  if (!audience?.followers) lines.push({ key: "fedi", text: t("publish.federationOff") });
  else if (!shared) lines.push({ key: "fedi", text: t("publish.notShared") });
  else {
    const total = shared.en + shared.zh;
    const key = kind === "update" ? "publish.updateShared" : "publish.shared";
    lines.push({ key: "fedi", text: t(key, { count: total, detail: detail(shared) }) });
  }

  const title =
    kind === "update"
      ? t("publish.updateTitle")
      : kind === "schedule"
        ? t("publish.scheduleTitle")
        : t("publish.publishTitle");
  const confirmLabel =
    kind === "update"
      ? t("publish.confirmUpdate")
      : kind === "schedule"
        ? t("publish.confirmSchedule")
        : t("publish.confirmPublish");
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      data-testid="publish-dialog"
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
      className="m-auto max-w-lg rounded-lg border border-zinc-300 bg-white p-6 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      <ul id={`${id}-body`} className="mt-3 list-disc space-y-1 pl-5 text-sm">
        {lines.map((line) => (
          <li key={line.key} data-testid={`publish-${line.key}`}>
            {line.text}
          </li>
        ))}
      </ul>
      <div className="mt-5 flex flex-wrap justify-end gap-3">
        <button type="button" className={BUTTON_SECONDARY} onClick={props.onCancel}>
          {t("publish.cancel")}
        </button>
        <button
          type="button"
          // biome-ignore lint/a11y/noAutofocus: the dialog's action gets focus when it opens
          autoFocus
          className={PRIMARY}
          onClick={props.onConfirm}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
