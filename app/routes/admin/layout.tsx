import { Outlet, useRouteLoaderData } from "react-router";
import { AdminShell } from "../../components/admin/admin-shell.tsx";
import { ErrorPage } from "../../components/layout/error-page.tsx";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { pendingCommentCount } from "../../server/comments/comment-moderation.server.ts";
import { displayName } from "../../server/posts/post-detail.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/layout";

// The admin wears its own frame (components/admin/admin-shell.tsx), not the site's header and
// footer: `shell` tells the root layout (lib/shell.ts).
export const handle = { ...routePolicy({ cache: "none", writes: "content" }), shell: "admin" as const };

// Every child loader and action checks admin too: loaders run in parallel, so
// this one alone would not stop a child's data from being computed.
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  const { locale } = getRequest(context);
  const [pendingComments, settings] = await Promise.all([
    // Beside "Comments": one COUNT along the comments(status, createdAt) index.
    pendingCommentCount(getApp(context).db),
    requestSettings(context),
  ]);
  return {
    pendingComments,
    // The bar shows the name the person chose, never their address (issue 46).
    displayName: displayName(admin.name),
    email: admin.email,
    siteName: settings.siteName[locale],
    locale,
  };
}

type LayoutData = Awaited<ReturnType<typeof loader>>;

function Shell({ data, children }: { data: LayoutData; children: React.ReactNode }) {
  useAdminStrings();
  return (
    <AdminShell
      siteName={data.siteName}
      displayName={data.displayName}
      email={data.email}
      pendingComments={data.pendingComments}
      locale={data.locale}
    >
      {children}
    </AdminShell>
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <Shell data={loaderData}>
      <Outlet />
    </Shell>
  );
}

/**
 * A section that failed (a missing record's 404, a bad request) shows its message inside the
 * admin's frame. When this layout's own loader failed (a reader's 403, a stranger's 401) there
 * is no frame to draw: the site's error page, in the site's frame (lib/shell.ts).
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<typeof loader>("routes/admin/layout");
  if (!data) return <ErrorPage error={error} />;
  return (
    <Shell data={data}>
      <ErrorPage error={error} />
    </Shell>
  );
}
