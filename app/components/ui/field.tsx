import { useId } from "react";
import type { PasswordPolicy } from "../../lib/schemas/auth.ts";
import { usePasswordHint } from "./use-password-hint.ts";

export interface FieldProps {
  label: string;
  name: string;
  type?: "email" | "password" | "text" | "url" | "datetime-local";
  autoComplete?: string;
  defaultValue?: string;
  /** With `onValueChange`: a controlled field (the post editor's). */
  value?: string;
  onValueChange?: (value: string) => void;
  lang?: string;
  placeholder?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  /** A translated message, shown under the field and announced with it. */
  error?: string | null;
  hint?: string;
  /** A textarea instead of an input. */
  rows?: number;
}

/** What a control's `aria-describedby` names: its error and hint, as FieldMessages gives them ids. */
export function describedBy(id: string, hint?: string | null, error?: string | null): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
}

/** A field's hint and error under its control, with the ids `describedBy` names. */
export function FieldMessages({ id, hint, error }: { id: string; hint?: string | null; error?: string | null }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </>
  );
}

/** A labelled input with its error message tied to it for screen readers. */
const CONTROL =
  "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 shadow-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/40 aria-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

export function Field({ label, name, type = "text", error, hint, rows, onValueChange, ...rest }: FieldProps) {
  const id = useId();
  const onChange = onValueChange
    ? (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onValueChange(e.target.value)
    : undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {rows ? (
        <textarea
          id={id}
          name={name}
          rows={rows}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          className={CONTROL}
          onChange={onChange}
          {...rest}
        />
      ) : (
        <input
          id={id}
          name={name}
          type={type}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          className={CONTROL}
          onChange={onChange}
          {...rest}
        />
      )}
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * A labelled select with its hint and error tied to it: uncontrolled with
 * `defaultValue`, or controlled with `value` and `onChange`.
 */
export function SelectField({
  id: givenId,
  label,
  name,
  options,
  hint,
  error,
  compact = false,
  ...state
}: {
  /** A fixed id, where a page links to the field; else one is made. */
  id?: string;
  label: string;
  name: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  hint?: string;
  error?: string | null;
  /** Small text and the menu's own width (a filter bar), instead of a form's full width. */
  compact?: boolean;
} & ({ defaultValue: string } | { value: string; onChange: (value: string) => void })) {
  const madeId = useId();
  const id = givenId ?? madeId;
  const control =
    "value" in state
      ? { value: state.value, onChange: (e: React.ChangeEvent<HTMLSelectElement>) => state.onChange(e.target.value) }
      : { defaultValue: state.defaultValue };
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        {...control}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={compact ? COMPACT_CONTROL : CONTROL}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

const COMPACT_CONTROL =
  "block rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/** The e-mail field every form uses. */
export function EmailField({ label, name = "email", error }: { label: string; name?: string; error: string | null }) {
  return <Field label={label} name={name} type="email" autoComplete="email" required maxLength={254} error={error} />;
}

/** A field for a new password, with the policy's limits and rules under it. */
export function NewPasswordField({
  label,
  policy,
  error,
  name = "password",
}: {
  label: string;
  policy: PasswordPolicy;
  error: string | null;
  name?: string;
}) {
  const hint = usePasswordHint(policy);
  return (
    <Field
      label={label}
      name={name}
      type="password"
      autoComplete="new-password"
      required
      minLength={policy.minLength}
      maxLength={policy.maxLength}
      hint={hint}
      error={error}
    />
  );
}

export function FormAlert({ tone = "error", children }: { tone?: "error" | "success"; children: React.ReactNode }) {
  const styles =
    tone === "error"
      ? "border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
      : "border-green-300 bg-green-50 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-200";
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-md border px-4 py-3 text-sm ${styles}`}>
      {children}
    </div>
  );
}

export function SubmitButton({ children, busy }: { children: React.ReactNode; busy?: boolean }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="w-full rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus:outline-none focus:ring-2 focus:ring-blue-600/50 disabled:opacity-60"
    >
      {children}
    </button>
  );
}
