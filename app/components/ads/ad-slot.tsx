import { useTranslation } from "react-i18next";

/** The shape a page gets from `adFor()` (no target URL: clicks go through /ads/{id}/click). */
export interface AdView {
  id: string;
  kind: "image" | "text";
  title: string;
  text: string;
  imageUrl: string | null;
  imageAlt: string;
}

/** Every image ad is drawn in this box, so the page never shifts when it loads. */
export const AD_IMAGE_WIDTH = 728;
export const AD_IMAGE_HEIGHT = 90;

/**
 * One ad, labelled as such. Plain React elements only: the text is escaped and
 * the image is an <img> with a fixed size; no HTML from the ad, no client script.
 */
export function AdSlot({ ad, className = "" }: { ad: AdView | null | undefined; className?: string }) {
  const { t } = useTranslation();
  if (!ad) return null;
  const href = `/ads/${encodeURIComponent(ad.id)}/click`;
  return (
    <aside
      aria-label={t("adLabel")}
      data-ad={ad.id}
      className={`rounded-lg border border-zinc-200 p-3 dark:border-zinc-800 ${className}`}
    >
      <p className="text-xs font-medium uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{t("adLabel")}</p>
      {ad.kind === "image" && ad.imageUrl ? (
        <a href={href} rel="sponsored noopener" className="mt-2 block">
          <img
            src={ad.imageUrl}
            alt={ad.imageAlt || ad.title}
            width={AD_IMAGE_WIDTH}
            height={AD_IMAGE_HEIGHT}
            loading="lazy"
            decoding="async"
            className="aspect-[728/90] h-auto w-full rounded object-contain"
          />
        </a>
      ) : (
        <div className="mt-1">
          <a
            href={href}
            rel="sponsored noopener"
            className="font-semibold text-blue-800 hover:underline dark:text-blue-300"
          >
            {ad.title}
          </a>
          {ad.text && <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{ad.text}</p>}
        </div>
      )}
    </aside>
  );
}
