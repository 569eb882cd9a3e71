import { useTranslation } from "react-i18next";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/transfer-batch";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "solana:batch.title", [NOINDEX]);
}

export default function TransferBatch() {
  const { t } = useTranslation("solana");
  return (
    <section aria-labelledby="batch-title" className="space-y-4">
      <h1 id="batch-title" className="text-2xl font-bold">
        {t("batch.title")}
      </h1>
      <p>{t("batch.intro")}</p>
    </section>
  );
}
