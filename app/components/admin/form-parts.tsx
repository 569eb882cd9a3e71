import { useEffect, useState } from "react";
import { isoToLocal } from "../../lib/schemas/swaper.ts";
import { describedBy, FieldMessages } from "../ui/field.tsx";

/**
 * The browser's UTC offset in minutes (Date#getTimezoneOffset), 0 until hydrated:
 * forms send it so the server turns local times into UTC (without JavaScript,
 * times are read as UTC).
 */
export function useBrowserTzOffset(): number {
  const [offset, setOffset] = useState(0);
  useEffect(() => setOffset(new Date().getTimezoneOffset()), []);
  return offset;
}

/** A `datetime-local` input, keyed by its value so the browser's zone (known after hydration) can correct it. */
export function DateTimeField({
  id,
  label,
  name,
  defaultValue,
  error,
}: {
  id: string;
  label: string;
  name: string;
  defaultValue: string;
  error: string | null;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        key={defaultValue}
        id={id}
        type="datetime-local"
        name={name}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, null, error)}
        className="block rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <FieldMessages id={id} error={error} />
    </div>
  );
}

/**
 * The "shown when" fields of slides and ads: an enabled checkbox and an optional
 * start and end, in the browser's local time.
 */
export function EnabledWindowFields({
  idPrefix,
  labels,
  value,
  tzOffset,
  err,
}: {
  idPrefix: string;
  labels: { enabled: string; startsAt: string; endsAt: string };
  value: { enabled: boolean; startsAt: string | null; endsAt: string | null } | null;
  tzOffset: number;
  err: (name: string) => string | null;
}) {
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
        defaultValue={isoToLocal(value?.startsAt ?? null, tzOffset)}
        error={err("startsAt")}
      />
      <DateTimeField
        id={`${idPrefix}-endsAt`}
        label={labels.endsAt}
        name="endsAt"
        defaultValue={isoToLocal(value?.endsAt ?? null, tzOffset)}
        error={err("endsAt")}
      />
    </>
  );
}
