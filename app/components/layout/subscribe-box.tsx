import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import type { Locale } from "../../lib/i18n/locale.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { FormAlert } from "../ui/field.tsx";
import { useClientValidation } from "../ui/use-client-validation.ts";

const loadEmailSchema = () => import("../../lib/schemas/auth.ts").then((m) => m.subscribeSchema);

/** The choices of the language select, in the order shown (values of `subscribeSchema`'s `languages`). */
const LANGUAGE_CHOICES = ["en", "zh", "both"] as const;

/**
 * What POST /subscribe answers. Messages are i18n keys (they may become toasts):
 * `message` on success, `formError` or `fieldErrors` on failure.
 */
export interface SubscribeResult {
  message?: string;
  formError?: string;
  fieldErrors?: Record<string, string>;
  retryAfter?: number;
}

/** The action the subscribe form posts to, in the page's language (mail follows it). */
export const subscribeAction = (locale: Locale) => `/${locale}/subscribe`;

export interface SubscribeFormProps {
  locale: Locale;
  /** The answer to show (a fetcher's data, or the subscribe page's action data). */
  result?: SubscribeResult | undefined;
  busy?: boolean;
  /** A form element: `fetcher.Form` in the footer, `Form` on the subscribe page. */
  FormComponent: React.ElementType;
  /** The footer's form: without React, the reader script posts it and shows the answer in place. */
  inline?: boolean;
}

/**
 * The subscribe form: a labelled, required e-mail input and a button. Without
 * JavaScript the browser checks the address and the server answers with a page;
 * with it, the shared schema checks it first and the answer shows in place.
 */
export function SubscribeForm({ locale, result, busy, FormComponent, inline = false }: SubscribeFormProps) {
  const { t } = useTranslation();
  const m = useMessage();
  const id = useId();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // Every page has this form: zod loads only once a reader focuses it.
  const { clientErrors, onSubmit, onFocus } = useClientValidation(loadEmailSchema);
  const errors = clientErrors ?? result?.fieldErrors ?? {};
  const fieldError = errors.email ? m(errors.email) : null;
  const inputId = `${id}-email`;
  const languagesId = `${id}-languages`;
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  return (
    <div className="space-y-2" data-subscribe-root="">
      <p id={descriptionId}>{t("subscribe.description")}</p>
      <FormComponent
        method="post"
        action={subscribeAction(locale)}
        noValidate={hydrated}
        onSubmit={onSubmit}
        onFocus={onFocus}
        className="space-y-2"
        data-testid="subscribe-form"
        data-subscribe-inline={inline ? "" : undefined}
      >
        <label htmlFor={inputId} className="block font-medium text-zinc-800 dark:text-zinc-200">
          {t("subscribe.emailLabel")}
        </label>
        <div className="flex flex-wrap gap-2">
          <input
            id={inputId}
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="email"
            placeholder={t("subscribe.placeholder")}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={[descriptionId, fieldError ? errorId : null].filter(Boolean).join(" ")}
            data-required-message={inline ? m("auth:errors.emailRequired") : undefined}
            data-invalid-message={inline ? m("auth:errors.emailInvalid") : undefined}
            className="min-w-48 flex-1 rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 shadow-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/40 aria-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
          />
          <button
            type="submit"
            disabled={busy}
            className="rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus:outline-none focus:ring-2 focus:ring-blue-600/50 disabled:opacity-60"
          >
            {t("subscribe.submit")}
          </button>
        </div>
        {fieldError && (
          <p id={errorId} className="text-red-700 dark:text-red-400" data-field-error="">
            {fieldError}
          </p>
        )}
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={languagesId} className="text-zinc-700 dark:text-zinc-300">
            {t("subscribe.languageLabel")}
          </label>
          <select
            id={languagesId}
            name="languages"
            defaultValue={locale}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
          >
            {LANGUAGE_CHOICES.map((value) => (
              <option key={value} value={value}>
                {t(`subscribe.languages.${value}`)}
              </option>
            ))}
          </select>
        </div>
      </FormComponent>
      {!clientErrors && result?.message && <FormAlert tone="success">{m(result.message)}</FormAlert>}
      {!clientErrors && result?.formError && (
        <FormAlert>{m(result.formError, { seconds: result.retryAfter ?? 60 })}</FormAlert>
      )}
    </div>
  );
}

/** The footer's subscribe box: posts through a fetcher so the reader stays on the page. */
export function SubscribeBox({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<SubscribeResult>({ key: "subscribe" });
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="max-w-sm">
      <h2 id={headingId} className="mb-2 text-base font-semibold text-zinc-900 dark:text-zinc-100">
        {t("subscribe.heading")}
      </h2>
      <SubscribeForm
        locale={locale}
        result={fetcher.data}
        busy={fetcher.state !== "idle"}
        FormComponent={fetcher.Form}
        inline
      />
    </section>
  );
}
