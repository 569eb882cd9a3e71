import { useTranslation } from "react-i18next";
import type { Locale } from "../../lib/i18n/locale.ts";
import { StatusLabel } from "./table-parts.tsx";

/**
 * A post's language versions that are out of date (issue 47, docs/decisions/034-translation-sync.md),
 * beside the row's language badges in the admin post list: "Chinese out of date".
 */
export function OutdatedLabels({ locales }: { locales: readonly Locale[] }) {
  const { t } = useTranslation("translations");
  return (
    <>
      {locales.map((locale) => (
        <span key={locale} data-testid={`row-outdated-${locale}`}>
          <StatusLabel tone="amber">{t("mark.short", { language: t(`languages.${locale}`) })}</StatusLabel>
        </span>
      ))}
    </>
  );
}
