import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { AdminPagination, TableScroll, tableClass, useListUrls } from "../../components/admin/list-parts.tsx";
import { Field, FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { LocalTime } from "../../components/ui/local-time.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { fediverseSchema } from "../../lib/schemas/fediverse.ts";
import { adminListRequest } from "../../server/admin/list-request.server.ts";
import type { FormFailure } from "../../server/auth/guard.server.ts";
import { requireAdmin } from "../../server/auth/session.server.ts";
import { getApp } from "../../server/context.server.ts";
import { federationHost } from "../../server/federation/paths.server.ts";
import { flashHeaders, flashOptions } from "../../server/flash.server.ts";
import { audit } from "../../server/repos/audit.server.ts";
import { FEDERATION_ACTORS, followersPage } from "../../server/repos/federation.server.ts";
import { getSiteSettings, updateSiteSettings } from "../../server/repos/site-settings.server.ts";
import type { Route } from "./+types/fediverse";

// /admin/fediverse: whether the blog federates and why, each language's account
// (its handle) and who follows it. The switch and the handles are site settings;
// FEDERATION in the environment overrides the switch (docs/decisions/023-federation.md).

// Handles and the switch show on no reader's page (yet): nothing cached changes.
export const handle = routePolicy({ writes: "none" });

const PAGE_SIZE = 50;

function pageParam(url: URL, name: string): number {
  const n = Number.parseInt(url.searchParams.get(name) ?? "1", 10);
  return Number.isSafeInteger(n) && n > 0 ? n : 1;
}

export async function loader(args: Route.LoaderArgs) {
  const { app, url, locale } = await adminListRequest(args);
  const settings = await getSiteSettings(app.db);
  const status = await app.federation.status();
  const host = federationHost(app.env.publicUrl);
  const actors = await Promise.all(
    FEDERATION_ACTORS.map(async (actor) => ({
      actor,
      handle: `@${settings.fediverse.handles[actor]}@${host}`,
      followers: await followersPage(app.db, actor, {
        page: pageParam(url, `${actor}Page`),
        pageSize: PAGE_SIZE,
      }),
    })),
  );
  return {
    status,
    envOverride: app.env.federation,
    enabled: settings.fediverse.enabled,
    handles: settings.fediverse.handles,
    actors,
    locale,
  };
}

type FediverseFailure = FormFailure & { values?: Record<string, string> };

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await request.formData();
  const parsed = validate(fediverseSchema, form);
  if (!parsed.ok) {
    const values = { handleZh: String(form.get("handleZh") ?? ""), handleEn: String(form.get("handleEn") ?? "") };
    return data<FediverseFailure>({ fieldErrors: parsed.errors, values }, { status: 400 });
  }
  const next = {
    enabled: parsed.data.enabled === "on",
    handles: { zh: parsed.data.handleZh, en: parsed.data.handleEn },
  };
  await app.db.transaction().execute(async (trx) => {
    await updateSiteSettings(trx, { fediverse: next });
    await audit(
      trx,
      admin,
      "settings.update",
      { type: "settings", id: null },
      { title: "fediverse", keys: ["fediverse"] },
    );
  });
  // Posts published while the switch was off are sent now, when it is on.
  app.federation.poke();
  return redirect("/admin/fediverse", { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminConfig:fediverse.title", [NOINDEX]);
}

type ActorView = Route.ComponentProps["loaderData"]["actors"][number];

function Followers({ view, locale }: { view: ActorView; locale: Route.ComponentProps["loaderData"]["locale"] }) {
  const { t } = useTranslation("adminConfig");
  const { withParams } = useListUrls("/admin/fediverse");
  const { followers } = view;
  const titleId = `fediverse-${view.actor}`;
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="text-xl font-semibold">
        {t(`fediverse.actor.${view.actor}`)}
      </h2>
      <p>
        {t("fediverse.handle")}: <code data-testid={`handle-${view.actor}`}>{view.handle}</code>
      </p>
      <p data-testid={`followers-count-${view.actor}`}>{t("fediverse.followerCount", { count: followers.total })}</p>
      {followers.items.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">{t("fediverse.noFollowers")}</p>
      ) : (
        <TableScroll>
          <table className={tableClass("min-w-[40rem]")}>
            <thead>
              <tr>
                <th scope="col">{t("fediverse.columns.follower")}</th>
                <th scope="col">{t("fediverse.columns.name")}</th>
                <th scope="col">{t("fediverse.columns.server")}</th>
                <th scope="col">{t("fediverse.columns.since")}</th>
              </tr>
            </thead>
            <tbody>
              {followers.items.map((f) => (
                <tr key={f.id}>
                  <td>
                    <a href={f.followerUri} rel="noopener noreferrer nofollow">
                      {f.handle}
                    </a>
                  </td>
                  <td>{f.name}</td>
                  <td>{f.server}</td>
                  <td>
                    <LocalTime iso={f.createdAt} locale={locale} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <AdminPagination
        page={followers.page}
        pageCount={followers.pageCount}
        withParams={(changes) => withParams({ [`${view.actor}Page`]: changes.page ?? "1" })}
      />
    </section>
  );
}

export default function FediverseAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminConfig");
  const m = useMessage();
  const navigation = useNavigation();
  const { status, envOverride, enabled, handles, actors, locale } = loaderData;
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? { handleZh: handles.zh, handleEn: handles.en };
  const err = (name: string) => (errors[name] ? m(errors[name]) : null);
  return (
    <section aria-labelledby="fediverse-title" className="space-y-8">
      <h1 id="fediverse-title" className="text-3xl font-bold tracking-tight">
        {t("fediverse.title")}
      </h1>
      <p className="text-zinc-700 dark:text-zinc-300">{t("fediverse.intro")}</p>
      <div
        data-testid="federation-status"
        className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
        role="status"
      >
        <p className="text-lg font-semibold">{status.on ? t("fediverse.on") : t("fediverse.off")}</p>
        <p>{t(`fediverse.reason.${status.reason}`)}</p>
      </div>

      <Form method="post" noValidate className="max-w-xl space-y-4">
        {Object.keys(errors).length > 0 && <FormAlert>{m("adminConfig:errors.summary")}</FormAlert>}
        <label className="flex items-center gap-2">
          <input type="checkbox" name="enabled" value="on" defaultChecked={enabled} />
          <span>{t("fediverse.switch")}</span>
        </label>
        {envOverride && <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("fediverse.envOverride")}</p>}
        <Field
          label={t("fediverse.handleZh")}
          name="handleZh"
          defaultValue={values.handleZh}
          error={err("handleZh")}
          hint={t("fediverse.handleHint")}
          maxLength={30}
        />
        <Field
          label={t("fediverse.handleEn")}
          name="handleEn"
          defaultValue={values.handleEn}
          error={err("handleEn")}
          maxLength={30}
        />
        <SubmitButton busy={navigation.state === "submitting"}>{t("fediverse.save")}</SubmitButton>
      </Form>

      {actors.map((view) => (
        <Followers key={view.actor} view={view} locale={locale} />
      ))}
    </section>
  );
}
