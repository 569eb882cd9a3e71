import { useTranslation } from "react-i18next";
import { Link } from "../../lean/link.tsx";
import type { Locale } from "../../lib/i18n/locale.ts";

/**
 * A post page's word that the version shown was written before the other language's last
 * change (issue 47, docs/decisions/034-translation-sync.md): to readers when the site setting
 * is on, in their language; to an admin always, with the way to the editor. Plain markup: the
 * reading pages render it without React in the browser.
 */
export interface TranslationNoticeView {
  /** The language that changed since. */
  source: Locale;
  audience: "reader" | "admin";
}

export function TranslationNotice({
  notice,
  editHref,
}: {
  notice: TranslationNoticeView;
  /** The editor, for an admin. */
  editHref: string | null;
}) {
  const { t } = useTranslation("post");
  return (
    <p
      className="mt-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50"
      data-testid="translation-notice"
    >
      {notice.audience === "admin"
        ? t(notice.source === "en" ? "outdated.adminEn" : "outdated.adminZh")
        : t(notice.source === "en" ? "outdated.en" : "outdated.zh")}
      {notice.audience === "admin" && editHref && (
        <>
          {" "}
          <Link to={editHref} className="underline">
            {t("outdated.edit")}
          </Link>
        </>
      )}
    </p>
  );
}
