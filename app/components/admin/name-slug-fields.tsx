import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { HAN, slugFromNames, type ToPinyin } from "../../lib/slug.ts";
import { Field } from "../ui/field.tsx";

// The name fields (English, Chinese) and the slug made from them: categories, tags, series.

/**
 * The names and the slug, which follows the names (pinyin for Chinese, loaded on
 * demand) until the admin edits it. An existing term keeps its slug: addresses stay.
 * Before hydration the fields are plain inputs and an empty slug is made on the server.
 */
function useAutoSlug(term: { nameEn: string; nameZh: string; slug: string } | null | undefined) {
  const [nameEn, setNameEn] = useState(term?.nameEn ?? "");
  const [nameZh, setNameZh] = useState(term?.nameZh ?? "");
  const [edited, setEdited] = useState<string | null>(term ? term.slug : null);
  const [toPinyin, setToPinyin] = useState<ToPinyin>();
  const needsPinyin = edited === null && !toPinyin && HAN.test(nameEn + nameZh);
  useEffect(() => {
    if (!needsPinyin) return;
    let live = true;
    import("../../lib/pinyin.ts").then(
      (mod) => live && setToPinyin(() => mod.toPinyin),
      () => undefined, // Offline: the slug stays empty and the server makes it.
    );
    return () => {
      live = false;
    };
  }, [needsPinyin]);
  const slug = edited ?? slugFromNames([nameEn, nameZh], toPinyin);
  return { nameEn, setNameEn, nameZh, setNameZh, slug, setSlug: setEdited };
}

export function NameAndSlugFields({
  term,
  err,
  slugHint,
}: {
  term: { nameEn: string; nameZh: string; slug: string } | null | undefined;
  err: (name: string) => string | null;
  /** The slug's hint, when not the categories' one. */
  slugHint?: string;
}) {
  const { t } = useTranslation("admin");
  const auto = useAutoSlug(term);
  return (
    <>
      <Field
        label={t("terms.nameEn")}
        name="nameEn"
        required
        maxLength={60}
        value={auto.nameEn}
        onValueChange={auto.setNameEn}
        error={err("nameEn")}
      />
      <Field
        label={t("terms.nameZh")}
        name="nameZh"
        required
        maxLength={60}
        value={auto.nameZh}
        onValueChange={auto.setNameZh}
        error={err("nameZh")}
      />
      <Field
        label={t("terms.slug")}
        name="slug"
        maxLength={80}
        value={auto.slug}
        onValueChange={auto.setSlug}
        hint={slugHint ?? t("terms.slugHint")}
        error={err("slug")}
      />
    </>
  );
}
