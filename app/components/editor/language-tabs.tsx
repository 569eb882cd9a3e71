import { type KeyboardEvent, type ReactNode, useRef } from "react";
import type { Locale } from "../../lib/i18n/locale.ts";

export interface TabSpec {
  locale: Locale;
  label: string;
  /** Marks the tab: one of its fields has an error. */
  hasErrors: boolean;
  /** Shown after the label (the "Out of date" mark, translation-status.tsx). */
  mark?: ReactNode;
  content: ReactNode;
}

/**
 * ARIA tabs for the language versions (automatic activation: arrow keys, Home and
 * End move between tabs). Inactive panels stay in the form, hidden, so their fields
 * are submitted. Without JavaScript every panel shows and the tab list hides.
 */
export function LanguageTabs({
  label,
  tabs,
  active,
  onChange,
  errorLabel,
}: {
  label: string;
  tabs: TabSpec[];
  active: Locale;
  onChange(locale: Locale): void;
  errorLabel: string;
}) {
  const refs = useRef(new Map<Locale, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    let next: number | null = null;
    if (event.key === "ArrowRight") next = (index + 1) % tabs.length;
    else if (event.key === "ArrowLeft") next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = tabs.length - 1;
    if (next === null) return;
    event.preventDefault();
    const target = tabs[next];
    if (!target) return;
    onChange(target.locale);
    refs.current.get(target.locale)?.focus();
  };
  return (
    <div>
      <noscript>
        <style>{"[data-language-panel]{display:block!important}[data-language-tabs]{display:none!important}"}</style>
      </noscript>
      <div
        role="tablist"
        aria-label={label}
        data-language-tabs=""
        className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800"
      >
        {tabs.map((tab, index) => {
          const selected = tab.locale === active;
          return (
            <button
              key={tab.locale}
              ref={(el) => {
                if (el) refs.current.set(tab.locale, el);
                else refs.current.delete(tab.locale);
              }}
              type="button"
              role="tab"
              id={`tab-${tab.locale}`}
              aria-selected={selected}
              aria-controls={`panel-${tab.locale}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(tab.locale)}
              onKeyDown={(event) => onKeyDown(event, index)}
              className={`-mb-px rounded-t-md border px-4 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 ${
                selected
                  ? "border-zinc-200 border-b-white bg-white dark:border-zinc-800 dark:border-b-zinc-950 dark:bg-zinc-950"
                  : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
              }`}
            >
              <span lang={tab.locale === "en" ? "en-US" : "zh-CN"}>{tab.label}</span>
              {tab.mark}
              {tab.hasErrors && (
                <>
                  <span aria-hidden="true" className="ml-1.5 font-bold text-red-700 dark:text-red-400">
                    !
                  </span>
                  <span className="sr-only"> {errorLabel}</span>
                </>
              )}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.locale}
          role="tabpanel"
          id={`panel-${tab.locale}`}
          aria-labelledby={`tab-${tab.locale}`}
          data-language-panel=""
          // A class, not the hidden attribute: Tailwind hides [hidden] with an
          // !important rule in a layer, which the no-JavaScript style could not undo.
          className={`space-y-5 pt-5 ${tab.locale === active ? "" : "hidden"}`}
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
