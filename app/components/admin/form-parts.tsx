import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { browserOffsetAt } from "../../lib/editor-values.ts";
import { isoToLocalDateTime } from "../../lib/schemas/post.ts";
import { describedBy, FieldMessages } from "../ui/field.tsx";

/** The browser's time zone name, null until hydrated (the server renders times in UTC). */
function useBrowserZone(): string | null {
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"), []);
  return zone;
}

/**
 * A `datetime-local` input for a stored instant, and beside it the hidden `{name}Tz`:
 * the browser's UTC offset at the time shown (decision 016). The time is shown in UTC
 * until hydrated, then in the browser's zone with the offset of that instant (so a July
 * time seen in November is in summer time); typing a time sends that moment's offset.
 * Keyed by the shown value, so the change after hydration replaces the input.
 */
export function DateTimeField({
  id,
  label,
  name,
  iso,
  hint,
  error,
  hydrated,
}: {
  id: string;
  label: string;
  name: string;
  iso: string | null;
  hint?: string | null;
  error: string | null;
  hydrated: boolean;
}) {
  const offset = hydrated && iso ? new Date(iso).getTimezoneOffset() : 0;
  const shown = isoToLocalDateTime(iso, offset);
  const tzRef = useRef<HTMLInputElement>(null);
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        key={shown}
        id={id}
        type="datetime-local"
        name={name}
        defaultValue={shown}
        onChange={(event) => {
          if (hydrated && tzRef.current) tzRef.current.value = String(browserOffsetAt(event.currentTarget.value));
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className="block rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <input key={`${shown}|${offset}`} ref={tzRef} type="hidden" name={`${name}Tz`} defaultValue={String(offset)} />
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * The "shown when" fields of slides and ads: an enabled checkbox and an optional
 * start and end, in the browser's local time (named in the hint; UTC without JavaScript).
 */
export function EnabledWindowFields({
  idPrefix,
  labels,
  value,
  err,
}: {
  idPrefix: string;
  labels: { enabled: string; startsAt: string; endsAt: string };
  value: { enabled: boolean; startsAt: string | null; endsAt: string | null } | null;
  err: (name: string) => string | null;
}) {
  const { t } = useTranslation("admin");
  const zone = useBrowserZone();
  const hint = zone ? t("window.hintLocal", { zone }) : t("window.hintUtc");
  return (
    <>
      <div className="flex items-center gap-2">
        <input
          id={`${idPrefix}-enabled`}
          type="checkbox"
          name="enabled"
          defaultChecked={value?.enabled ?? true}
          className="h-4 w-4"
        />
        <label htmlFor={`${idPrefix}-enabled`}>{labels.enabled}</label>
      </div>
      <DateTimeField
        id={`${idPrefix}-startsAt`}
        label={labels.startsAt}
        name="startsAt"
        iso={value?.startsAt ?? null}
        hint={hint}
        error={err("startsAt")}
        hydrated={zone !== null}
      />
      <DateTimeField
        id={`${idPrefix}-endsAt`}
        label={labels.endsAt}
        name="endsAt"
        iso={value?.endsAt ?? null}
        hint={hint}
        error={err("endsAt")}
        hydrated={zone !== null}
      />
    </>
  );
}

/** One group of a settings page (admin/config, admin/brand): a bordered fieldset with its legend. */
export function SettingsFieldset({ legend, children }: { legend: string; children: React.ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <legend className="px-1 text-lg font-semibold">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** A labelled checkbox with an optional hint under it; it sends "on" when ticked. */
export function CheckboxField(props: { name: string; label: string; hint?: string; defaultChecked: boolean }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="checkbox"
          name={props.name}
          defaultChecked={props.defaultChecked}
          aria-describedby={describedBy(id, props.hint)}
          className="h-4 w-4"
        />
        <label htmlFor={id}>{props.label}</label>
      </div>
      <FieldMessages id={id} hint={props.hint} />
    </div>
  );
}

const NUMBER_CONTROL =
  "block w-32 rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 aria-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

/** A labelled whole-number input between `min` and `max`, with its hint and error. */
export function NumberField(props: {
  name: string;
  label: string;
  hint?: string;
  min: number;
  max: number;
  defaultValue: string;
  error: string | null;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        type="number"
        inputMode="numeric"
        min={props.min}
        max={props.max}
        step={1}
        defaultValue={props.defaultValue}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.hint, props.error)}
        className={NUMBER_CONTROL}
      />
      <FieldMessages id={id} hint={props.hint} error={props.error} />
    </div>
  );
}
