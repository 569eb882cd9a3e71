import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { DocsLink } from "../../components/admin/docs-link.tsx";
import { ADMIN_BUTTON, useListUrls } from "../../components/admin/list-parts.tsx";
import { AdminTable } from "../../components/admin/list-table.tsx";
import { Field, FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { LocalTime } from "../../components/ui/local-time.tsx";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { actorBlockSchema, domainBlockSchema, fediverseSchema } from "../../lib/schemas/fediverse.ts";
import type { FormFailure } from "../../server/accounts/guard.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { adminListRequest } from "../../server/admin/list-request.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { type DeliveryFilter, deadServers, deliveriesPage } from "../../server/federation/deliveries.server.ts";
import { addBlock, listBlocks, removeBlock } from "../../server/federation/inbound-store.server.ts";
import { federationHost } from "../../server/federation/paths.server.ts";
import { FEDERATION_ACTORS, followersPage } from "../../server/federation/store.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { getSiteSettings, updateSiteSettings } from "../../server/site/site-settings.server.ts";
import type { Route } from "./+types/fediverse";

// /admin/fediverse: whether the blog federates and why, each language's account
// (its handle) and who follows it. The switch and the handles are site settings;
// FEDERATION in the environment overrides the switch (docs/decisions/023-federation.md).

// The switch and the handles show on readers' pages (the follow box, fediverse:creator),
// and a block hides comments there: a write here drops the cached pages.
export const handle = routePolicy({ writes: "content" });

const PAGE_SIZE = 50;
const LOG_PAGE_SIZE = 25;

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
  const logFilter: DeliveryFilter = url.searchParams.get("log") === "failures" ? "failures" : "all";
  const [deliveries, dead] = await Promise.all([
    deliveriesPage(app.db, { filter: logFilter, page: pageParam(url, "logPage"), pageSize: LOG_PAGE_SIZE }),
    deadServers(app.db),
  ]);
  return {
    status,
    blocks: await listBlocks(app.db),
    deliveries,
    logFilter,
    dead,
    envOverride: app.env.federation,
    enabled: settings.fediverse.enabled,
    handles: settings.fediverse.handles,
    actors,
    locale,
  };
}

type FediverseFailure = FormFailure & { values?: Record<string, string>; intent?: string };

/**
 * One page, several forms: the settings (no `intent`), blocking a domain (`intent=blockDomain`),
 * blocking an actor (`blockActor`=its id, also from a remote comment in the moderation list or
 * a follower row), and lifting a block (`unblock`=its id). Each is audited.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const saved = () =>
    redirect("/admin/fediverse#blocks", { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
  if (form.has("blockActor")) {
    const actor = validate(actorBlockSchema, form);
    if (!actor.ok) return data<FediverseFailure>({ fieldErrors: actor.errors, intent: "blockActor" }, { status: 400 });
    const uri = actor.data.blockActor;
    await app.db.transaction().execute(async (trx) => {
      const id = await addBlock(trx, "actor", uri);
      await audit(trx, admin, "fediverse.block", { type: "fediverseBlock", id }, { kind: "actor", value: uri });
    });
    return saved();
  }
  if (form.get("intent") === "blockDomain") {
    const domain = validate(domainBlockSchema, form);
    if (!domain.ok) {
      const values = { domain: String(form.get("domain") ?? "").slice(0, 300) };
      return data<FediverseFailure>({ fieldErrors: domain.errors, values, intent: "blockDomain" }, { status: 400 });
    }
    const value = domain.data.domain;
    await app.db.transaction().execute(async (trx) => {
      const id = await addBlock(trx, "domain", value);
      await audit(trx, admin, "fediverse.block", { type: "fediverseBlock", id }, { kind: "domain", value });
    });
    return saved();
  }
  if (form.has("unblock")) {
    const id = String(form.get("unblock") ?? "").slice(0, 64);
    const removed = await app.db.transaction().execute(async (trx) => {
      const row = await removeBlock(trx, id);
      if (row) {
        await audit(
          trx,
          admin,
          "fediverse.unblock",
          { type: "fediverseBlock", id },
          { kind: row.kind, value: row.value },
        );
      }
      return row;
    });
    if (!removed)
      return data<FediverseFailure>({ formError: "admin:errors.notFound", intent: "unblock" }, { status: 404 });
    return saved();
  }
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

/** A table's pages on this page of several tables: each pages by a query value of its own (`param`). */
function pagesBy(
  withParams: (changes: Record<string, string>) => string,
  list: { page: number; pageCount: number },
  param: string,
) {
  return {
    page: list.page,
    pageCount: list.pageCount,
    withParams: (changes: Record<string, string>) => withParams({ [param]: changes.page ?? "1" }),
  };
}

/** A table row's one-button form: posts `name=value` (the account to block, the block to lift). */
function RowButton({ name, value, label, text }: { name: string; value: string; label: string; text: string }) {
  return (
    <Form method="post">
      <button type="submit" name={name} value={value} className={ADMIN_BUTTON} aria-label={label}>
        {text}
      </button>
    </Form>
  );
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
      <AdminTable
        columns={[
          t("fediverse.columns.follower"),
          t("fediverse.columns.name"),
          t("fediverse.columns.server"),
          t("fediverse.columns.since"),
          t("fediverse.columns.block"),
        ]}
        rowCount={followers.items.length}
        empty={t("fediverse.noFollowers")}
        minWidth="min-w-[40rem]"
        pagination={pagesBy(withParams, followers, `${view.actor}Page`)}
      >
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
            <td>
              {f.blocked ? (
                <span data-testid="follower-blocked">{t("fediverse.blocked")}</span>
              ) : (
                <RowButton
                  name="blockActor"
                  value={f.followerUri}
                  label={t("fediverse.blockActorLabel", { handle: f.handle })}
                  text={t("fediverse.block")}
                />
              )}
            </td>
          </tr>
        ))}
      </AdminTable>
    </section>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

/** Blocked actors and servers: their replies hidden, their activities ignored, no deliveries to them. */
function Blocks({
  blocks,
  locale,
  actionData,
}: {
  blocks: LoaderData["blocks"];
  locale: LoaderData["locale"];
  actionData: Route.ComponentProps["actionData"];
}) {
  const { t } = useTranslation("adminConfig");
  const m = useMessage();
  const navigation = useNavigation();
  const mine =
    actionData?.intent === "blockDomain" || actionData?.intent === "blockActor" || actionData?.intent === "unblock";
  const domainError = actionData?.intent === "blockDomain" ? actionData.fieldErrors?.domain : undefined;
  const otherError =
    actionData?.intent === "blockActor"
      ? actionData.fieldErrors?.blockActor
      : actionData?.intent === "unblock"
        ? actionData.formError
        : undefined;
  return (
    <section id="blocks" aria-labelledby="blocks-title" className="scroll-mt-24 space-y-3">
      <h2 id="blocks-title" className="text-xl font-semibold">
        {t("fediverse.blocks.title")}
      </h2>
      <p className="text-zinc-700 dark:text-zinc-300">{t("fediverse.blocks.intro")}</p>
      {mine && otherError && <FormAlert>{m(otherError)}</FormAlert>}
      <Form method="post" noValidate className="flex max-w-xl flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="blockDomain" />
        <div className="min-w-0 flex-1">
          <Field
            label={t("fediverse.blocks.domain")}
            name="domain"
            defaultValue={actionData?.intent === "blockDomain" ? (actionData.values?.domain ?? "") : ""}
            error={domainError ? m(domainError) : null}
            hint={t("fediverse.blocks.domainHint")}
            maxLength={253}
          />
        </div>
        <SubmitButton busy={navigation.state === "submitting"}>{t("fediverse.blocks.blockDomain")}</SubmitButton>
      </Form>
      <AdminTable
        columns={[
          t("fediverse.blocks.columns.kind"),
          t("fediverse.blocks.columns.value"),
          t("fediverse.blocks.columns.since"),
          t("fediverse.blocks.columns.action"),
        ]}
        rowCount={blocks.length}
        empty={t("fediverse.blocks.none")}
        minWidth="min-w-[36rem]"
        testId="blocks"
      >
        {blocks.map((b) => (
          <tr key={b.id}>
            <td>{t(`fediverse.blocks.kind.${b.kind}`)}</td>
            <td className="break-all">{b.value}</td>
            <td>
              <LocalTime iso={b.createdAt} locale={locale} />
            </td>
            <td>
              <RowButton
                name="unblock"
                value={b.id}
                label={t("fediverse.blocks.unblockLabel", { value: b.value })}
                text={t("fediverse.blocks.unblock")}
              />
            </td>
          </tr>
        ))}
      </AdminTable>
    </section>
  );
}

const OUTCOME_CLASS: Record<LoaderData["deliveries"]["items"][number]["outcome"], string> = {
  sent: "text-green-800 dark:text-green-300",
  retrying: "text-amber-800 dark:text-amber-300",
  "gave-up": "text-red-700 dark:text-red-400",
  skipped: "text-red-700 dark:text-red-400",
};

/** The delivery log: each attempt to an inbox, newest first, all or only failures, paged. */
function DeliveryLog({ data }: { data: LoaderData }) {
  const { t } = useTranslation("adminConfig");
  const { withParams } = useListUrls("/admin/fediverse");
  const { deliveries, logFilter, dead, locale } = data;
  const filterLink = (filter: DeliveryFilter) => (
    <Link
      to={withParams({ log: filter, logPage: "1" })}
      aria-current={logFilter === filter ? "page" : undefined}
      className="rounded-md px-3 py-1 aria-[current=page]:bg-zinc-200 aria-[current=page]:font-semibold dark:aria-[current=page]:bg-zinc-800"
    >
      {t(`fediverse.deliveries.filter.${filter}`)}
    </Link>
  );
  return (
    <section aria-labelledby="fediverse-deliveries" className="space-y-3" data-testid="delivery-log">
      <h2 id="fediverse-deliveries" className="text-xl font-semibold">
        {t("fediverse.deliveries.title")}
      </h2>
      <p className="text-zinc-700 dark:text-zinc-300">{t("fediverse.deliveries.intro")}</p>
      {dead.length > 0 && (
        <div
          role="status"
          className="rounded-lg border border-red-300 p-3 dark:border-red-800"
          data-testid="dead-servers"
        >
          <p className="font-semibold">{t("fediverse.deliveries.deadTitle")}</p>
          <ul className="list-disc pl-6">
            {dead.map((d) => (
              <li key={d.server}>
                {t("fediverse.deliveries.dead", { server: d.server })} <LocalTime iso={d.deadSince} locale={locale} />
              </li>
            ))}
          </ul>
        </div>
      )}
      <nav aria-label={t("fediverse.deliveries.filterLabel")} className="flex gap-2 text-sm">
        {filterLink("all")}
        {filterLink("failures")}
      </nav>
      <AdminTable
        columns={[
          t("fediverse.deliveries.columns.time"),
          t("fediverse.deliveries.columns.server"),
          t("fediverse.deliveries.columns.activity"),
          t("fediverse.deliveries.columns.outcome"),
          t("fediverse.deliveries.columns.detail"),
        ]}
        rowCount={deliveries.items.length}
        empty={t("fediverse.deliveries.empty")}
        minWidth="min-w-[48rem]"
        pagination={pagesBy(withParams, deliveries, "logPage")}
      >
        {deliveries.items.map((d) => (
          <tr key={d.id}>
            <td>
              <LocalTime iso={d.createdAt} locale={locale} />
            </td>
            <td>{d.server}</td>
            <td>{d.activityType}</td>
            <td className={OUTCOME_CLASS[d.outcome]}>
              {t(`fediverse.deliveries.outcome.${d.outcome}`)}
              {d.attempt > 0 ? ` (${t("fediverse.deliveries.attempt", { n: d.attempt + 1 })})` : ""}
            </td>
            <td className="max-w-xs break-words text-sm">
              {d.status !== null
                ? `HTTP ${d.status}`
                : d.outcome === "skipped"
                  ? t("fediverse.deliveries.deadSkip")
                  : (d.error ?? "")}
            </td>
          </tr>
        ))}
      </AdminTable>
    </section>
  );
}

export default function FediverseAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminConfig");
  const m = useMessage();
  const navigation = useNavigation();
  const { status, envOverride, enabled, handles, actors, locale, blocks } = loaderData;
  // Each form shows its own errors: the settings form's come without an intent.
  const errors = actionData?.intent === undefined ? (actionData?.fieldErrors ?? {}) : {};
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
        <p>
          {t(`fediverse.reason.${status.reason}`)}
          {status.reason.startsWith("env-") || status.reason === "needs-https" ? (
            <>
              {" "}
              <DocsLink doc="configuration" />
            </>
          ) : null}
        </p>
      </div>

      <Form method="post" noValidate className="max-w-xl space-y-4">
        {Object.keys(errors).length > 0 && <FormAlert>{m("adminConfig:errors.summary")}</FormAlert>}
        <label className="flex items-center gap-2">
          <input type="checkbox" name="enabled" value="on" defaultChecked={enabled} />
          <span>{t("fediverse.switch")}</span>
        </label>
        {envOverride && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {t("fediverse.envOverride")} <DocsLink doc="configuration" />
          </p>
        )}
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

      <Blocks blocks={blocks} locale={locale} actionData={actionData} />

      {actors.map((view) => (
        <Followers key={view.actor} view={view} locale={locale} />
      ))}
      <DeliveryLog data={loaderData} />
    </section>
  );
}
