import { useTranslation } from "react-i18next";
import { pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getApp } from "../../server/context.server.ts";
import { listEnabledLinks } from "../../server/repos/links.server.ts";
import type { Route } from "./+types/links";

export const handle = routePolicy({ cache: "public" });

// /links (and /en, /zh): the enabled friend links, in the admin's order.
export async function loader({ context }: Route.LoaderArgs) {
  return { links: await listEnabledLinks(getApp(context).db) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "friendLinks.title");
}

const LOGO_SIZE = 40;

export default function LinksPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { links } = loaderData;
  return (
    <section aria-labelledby="links-title" className="space-y-6">
      <h1 id="links-title" className="text-3xl font-bold tracking-tight">
        {t("friendLinks.title")}
      </h1>
      <p className="text-zinc-700 dark:text-zinc-300">{t("friendLinks.intro")}</p>
      {links.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">{t("friendLinks.empty")}</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2">
          {links.map((link) => (
            <li
              key={link.id}
              className="flex items-start gap-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
            >
              {link.logoUrl ? (
                <img
                  src={link.logoUrl}
                  alt=""
                  width={LOGO_SIZE}
                  height={LOGO_SIZE}
                  loading="lazy"
                  decoding="async"
                  className="h-10 w-10 shrink-0 rounded object-cover"
                />
              ) : (
                <span aria-hidden="true" className="h-10 w-10 shrink-0 rounded bg-zinc-100 dark:bg-zinc-800" />
              )}
              <div className="min-w-0">
                <a
                  href={link.url}
                  rel="noopener noreferrer"
                  className="font-semibold text-blue-800 hover:underline dark:text-blue-300"
                >
                  {link.name}
                </a>
                {link.description && (
                  <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{link.description}</p>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
