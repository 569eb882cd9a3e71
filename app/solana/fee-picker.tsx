import { useId } from "react";
import { useTranslation } from "react-i18next";
import { FEE_LEVELS, type FeeEstimate, type FeeLevel, parseCustomPrice } from "../lib/solana/fees.ts";

export interface FeeChoice {
  level: FeeLevel;
  /** The custom price as typed, in micro-lamports per compute unit. */
  custom: string;
}

export const DEFAULT_FEE_CHOICE: FeeChoice = { level: "normal", custom: "" };

/**
 * The priority fee level: three estimated from recent fees, or a custom price. Changing it
 * changes only the price of what is about to be signed, never the list that was checked.
 */
export function FeePicker({
  estimate,
  choice,
  onChange,
  disabled = false,
}: {
  estimate: FeeEstimate;
  choice: FeeChoice;
  onChange(choice: FeeChoice): void;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation("solana");
  const id = useId();
  const number = new Intl.NumberFormat(i18n.language === "zh" ? "zh-CN" : "en");
  const customInvalid = choice.level === "custom" && parseCustomPrice(choice.custom) === null;
  return (
    <fieldset className="space-y-1" disabled={disabled} data-testid="fee-picker">
      <legend className="font-semibold">{t("fees.title")}</legend>
      <p className="text-sm">{t("fees.intro")}</p>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {FEE_LEVELS.map((level) => (
          <label key={level}>
            <input
              type="radio"
              name={`${id}-level`}
              checked={choice.level === level}
              onChange={() => onChange({ ...choice, level })}
            />{" "}
            {level === "custom"
              ? t("fees.custom")
              : t("fees.level", { level: t(`fees.${level}`), price: number.format(estimate[level]) })}
          </label>
        ))}
      </div>
      {choice.level === "custom" && (
        <label className="flex flex-col gap-1">
          <span>{t("fees.customLabel")}</span>
          <input
            inputMode="numeric"
            value={choice.custom}
            aria-invalid={customInvalid}
            aria-describedby={customInvalid ? `${id}-error` : undefined}
            onChange={(e) => onChange({ ...choice, custom: e.target.value })}
            className="w-48 rounded border border-zinc-300 bg-white px-2 py-1 font-mono dark:border-zinc-700 dark:bg-zinc-900"
          />
          {customInvalid && (
            <span id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
              {t("fees.customInvalid")}
            </span>
          )}
        </label>
      )}
    </fieldset>
  );
}
