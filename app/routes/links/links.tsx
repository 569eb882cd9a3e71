import { useTranslation } from "react-i18next";
import { FriendLinkCards } from "../../components/blog/friend-link-cards.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { listEnabledLinks } from "../../server/site/links.server.ts";
import type { Route } from "./+types/links";

export const handle = routePolicy({ cache: "public", js: "lean" });

// /links (and /en, /zh): the enabled friend links, in the admin's order.
export async function loader({ context }: Route.LoaderArgs) {
  return { links: await listEnabledLinks(getApp(context).db) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "friendLinks.title");
}

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
        <FriendLinkCards links={links} />
      )}
    </section>
  );
}
