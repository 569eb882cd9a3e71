import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import { NavLink } from "../../lean/link.tsx";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { requireAdmin } from "../../server/auth/session.server.ts";
import { getApp } from "../../server/context.server.ts";
import { pendingCommentCount } from "../../server/repos/comment-moderation.server.ts";
import type { Route } from "./+types/layout";

export const handle = routePolicy({ cache: "none", writes: "content" });

/** The admin menu: every section that exists, in the spec's order. */
export const ADMIN_SECTIONS = [
  { to: "/admin", key: "menu.dashboard", end: true },
  { to: "/admin/insights", key: "menu.insights", end: false },
  { to: "/admin/users", key: "adminUsers:menu.users", end: false },
  { to: "/admin/config", key: "adminConfig:menu", end: false },
  { to: "/admin/categories", key: "menu.categories", end: false },
  { to: "/admin/tags", key: "menu.tags", end: false },
  { to: "/admin/series", key: "menu.series", end: false },
  { to: "/admin/blog", key: "adminContent:menu.blog", end: false },
  { to: "/admin/comments", key: "adminContent:menu.comments", end: false },
  { to: "/admin/swapers", key: "menu.swapers", end: false },
  { to: "/admin/links", key: "adminLinks:menu.links", end: false },
  { to: "/admin/ads", key: "adminLinks:menu.ads", end: false },
  { to: "/admin/redirects", key: "adminLinks:menu.redirects", end: false },
  { to: "/admin/import", key: "adminLinks:menu.import", end: false },
  { to: "/admin/media", key: "media:menu", end: false },
  { to: "/admin/subscribers", key: "adminUsers:menu.subscribers", end: false },
  { to: "/admin/newsletter", key: "adminNewsletter:menu", end: false },
  { to: "/admin/fediverse", key: "adminConfig:fediverse.menu", end: false },
] as const;

// Every child loader and action checks admin too: loaders run in parallel, so
// this one alone would not stop a child's data from being computed.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  // Beside "Comments": one COUNT along the comments(status, createdAt) index.
  return { pendingComments: await pendingCommentCount(getApp(context).db) };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  useAdminStrings();
  const pending = loaderData.pendingComments;
  // Sections name their menu entry in their own namespace ("adminLinks:menu.links").
  const { t } = useTranslation([
    "admin",
    "adminUsers",
    "adminConfig",
    "adminContent",
    "adminLinks",
    "adminNewsletter",
    "media",
  ]);
  return (
    <div className="space-y-8">
      <nav aria-labelledby="admin-menu-title" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <h2 id="admin-menu-title" className="text-lg font-semibold">
          {t("panel")}
        </h2>
        <ul className="mt-3 flex flex-wrap gap-2 text-sm">
          {ADMIN_SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                end={section.end}
                className={({ isActive }) =>
                  `inline-block rounded-md px-3 py-1.5 ${
                    isActive
                      ? "bg-blue-700 text-white"
                      : "text-blue-800 hover:bg-zinc-100 dark:text-blue-300 dark:hover:bg-zinc-800"
                  }`
                }
              >
                {t(section.key)}
                {section.to === "/admin/comments" && pending > 0 ? (
                  <span
                    data-testid="pending-comments"
                    className="ml-1.5 inline-block min-w-5 rounded-full bg-amber-500 px-1.5 text-center text-xs font-semibold text-zinc-950"
                  >
                    <span aria-hidden="true">{pending}</span>
                    <span className="sr-only">{` (${t("adminContent:menu.commentsWaiting", { count: pending })})`}</span>
                  </span>
                ) : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
