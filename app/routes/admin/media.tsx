import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useRevalidator, useSearchParams } from "react-router";
import { FilePicker } from "../../components/admin/file-picker.tsx";
import { ADMIN_BUTTON, AdminPagination, ConfirmDelete, useListUrls } from "../../components/admin/list-parts.tsx";
import {
  CardCell,
  CardRow,
  CardTable,
  EmptyState,
  FilterBar,
  PRIMARY_BAR_BUTTON,
  RowMenu,
  ShortTime,
  useListTimeZone,
} from "../../components/admin/table-parts.tsx";
import { IMAGE_ACCEPT, useUpload } from "../../components/media/use-upload.ts";
import { FormAlert } from "../../components/ui/field.tsx";
import { Link } from "../../lean/link.tsx";
import { oneOf } from "../../lib/admin-content.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { formatBytes, MEDIA_SORTS, usageHref } from "../../lib/media.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { adminListRequest, pendingDelete, safeBack } from "../../server/admin/list-request.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { deleteMedia, findUsagesForMany, getMedia, listMedia } from "../../server/media/media.server.ts";
import type { Route } from "./+types/media";

const PAGE_SIZE = 20;

export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url, locale } = await adminListRequest(args);
  const { db, env } = app;
  const sort = oneOf(MEDIA_SORTS, url.searchParams.get("sort")) ?? "newest";
  const list = await listMedia(db, { q, sort, page, pageSize: PAGE_SIZE });
  const usages = await findUsagesForMany(
    db,
    list.items.map((m) => m.id),
  );
  const detailsId = url.searchParams.get("details");
  const details = detailsId && /^[0-9a-z]{20}$/.test(detailsId) ? await getMedia(db, detailsId) : null;
  const confirming = await pendingDelete(url, async (id) => (/^[0-9a-z]{20}$/.test(id) ? getMedia(db, id) : undefined));
  return {
    items: list.items.map((m) => ({
      id: m.id,
      originalName: m.originalName,
      url: m.url,
      thumb: m.variants[0] ? `/media/${m.id}/${m.variants[0].file}` : m.url,
      thumbWidth: m.variants[0]?.width ?? m.width,
      thumbHeight: m.variants[0]?.height ?? m.height,
      width: m.width,
      height: m.height,
      size: m.size + m.variants.reduce((sum, v) => sum + v.size, 0),
      timeCreated: m.timeCreated,
      usages: usages.get(m.id) ?? [],
    })),
    page: list.page,
    pageCount: list.pageCount,
    total: list.total,
    q,
    sort,
    details,
    confirming: confirming ? { id: confirming.id, originalName: confirming.originalName } : null,
    locale,
    maxBytes: env.uploadMaxBytes,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const back = safeBack(form.get("back"), "/admin/media");
  if (intent !== "delete" || !/^[0-9a-z]{20}$/.test(id)) {
    return data({ error: "admin:errors.notFound", usages: [] }, { status: 400 });
  }
  const record = await getMedia(app.db, id);
  const result = await deleteMedia({ db: app.db, storage: app.storage, log: getRequest(context).log }, id);
  if (!result.ok && result.reason === "notFound") {
    return data({ error: "admin:errors.notFound", usages: [] }, { status: 404 });
  }
  if (!result.ok) {
    return data(
      { error: "inUse", name: record?.originalName ?? id, usages: result.reason === "inUse" ? result.usages : [] },
      { status: 409 },
    );
  }
  await audit(app.db, admin, "media.delete", { type: "media", id }, { title: record?.originalName ?? id });
  return redirect(back, { headers: flashHeaders(flashOptions(app.env), "success", "media:flash.deleted") });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "media:library.title", [NOINDEX]);
}

function UploadForm({ maxBytes }: { maxBytes: number }) {
  const { t } = useTranslation("media");
  const { state, upload } = useUpload();
  const revalidator = useRevalidator();
  const [hydrated, setHydrated] = useState(false);
  // Bumped after an upload: a fresh picker, its chosen file cleared.
  const [round, setRound] = useState(0);
  useEffect(() => setHydrated(true), []);
  return (
    <Form
      method="post"
      action="/api/uploads"
      encType="multipart/form-data"
      reloadDocument
      className="max-w-xl space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
      onSubmit={async (event) => {
        // With JavaScript: send with fetch, show the outcome here, refresh the list.
        event.preventDefault();
        const input = event.currentTarget.elements.namedItem("file");
        const file = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
        if (!file) return;
        const media = await upload(file);
        if (media) setRound((n) => n + 1);
        if (media) await revalidator.revalidate();
      }}
    >
      <FilePicker
        key={round}
        id="media-file"
        label={t("library.file")}
        accept={IMAGE_ACCEPT}
        required
        maxBytes={maxBytes}
        tooLarge={t("upload.errors.too-large", { size: formatBytes(maxBytes) })}
        wrongKind={t("upload.errors.invalid-format")}
        hint={t("upload.hint", { size: formatBytes(maxBytes) })}
      />
      <button type="submit" disabled={hydrated && state.status === "uploading"} className={PRIMARY_BAR_BUTTON}>
        {t("library.upload")}
      </button>
      <p aria-live="polite" className={`text-sm ${state.status === "error" ? "text-red-700 dark:text-red-400" : ""}`}>
        {state.status === "uploading" && t("upload.uploading", { name: state.name })}
        {state.status === "done" &&
          t("upload.done", { name: state.media.originalName, width: state.media.width, height: state.media.height })}
        {state.status === "error" && state.message}
      </p>
    </Form>
  );
}

type Details = NonNullable<Route.ComponentProps["loaderData"]["details"]>;

/** Every metadata field of one file (spec section 3), and its sizes. */
function MediaDetails({ media, closeHref }: { media: Details; closeHref: string }) {
  const { t } = useTranslation("media");
  const { t: ta } = useTranslation("admin");
  const fields: Array<[string, string]> = [
    ["bucket", media.bucket],
    ["generation", media.generation],
    ["metageneration", String(media.metageneration)],
    ["name", media.name],
    ["fullPath", media.fullPath],
    ["size", String(media.size)],
    ["timeCreated", media.timeCreated],
    ["updated", media.updated],
    ["md5Hash", media.md5Hash],
    ["cacheControl", media.cacheControl],
    ["contentDisposition", media.contentDisposition],
    ["contentEncoding", media.contentEncoding],
    ["contentLanguage", media.contentLanguage],
    ["contentType", media.contentType],
    ["customMetadata", JSON.stringify(media.customMetadata)],
    ["width", String(media.width)],
    ["height", String(media.height)],
  ];
  return (
    <section
      aria-labelledby="media-details-title"
      className="space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <h2 id="media-details-title" className="text-xl font-semibold">
        {t("library.detailsFor", { name: media.originalName })}
      </h2>
      <img
        src={media.url}
        srcSet={media.srcSet || undefined}
        sizes="(min-width: 768px) 480px, 100vw"
        width={media.width}
        height={media.height}
        alt=""
        className="h-auto max-h-64 w-auto max-w-full rounded"
      />
      <h3 className="font-medium">{t("library.metadata")}</h3>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {fields.map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="font-mono text-zinc-600 dark:text-zinc-400">{name}</dt>
            <dd className="break-all font-mono">{value || "—"}</dd>
          </div>
        ))}
      </dl>
      <h3 className="font-medium">{t("library.variants")}</h3>
      <ul className="text-sm">
        {media.variants.map((v) => (
          <li key={v.file}>
            <a href={`/media/${media.id}/${v.file}`} className="text-blue-800 underline dark:text-blue-300">
              {v.file}
            </a>{" "}
            {v.width} × {v.height}, {formatBytes(v.size)}
          </li>
        ))}
      </ul>
      <Link to={closeHref} className={ADMIN_BUTTON}>
        {ta("list.cancel")}
      </Link>
    </section>
  );
}

export default function MediaLibrary({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("media");
  const { t: ta } = useTranslation("admin");
  const m = useMessage();
  const { items, q, sort, confirming, locale, maxBytes, details } = loaderData;
  const { back, withParams } = useListUrls("/admin/media");
  const [copied, setCopied] = useState<string | null>(null);
  const [searchParams] = useSearchParams();
  const closeParams = new URLSearchParams(searchParams);
  closeParams.delete("details");
  closeParams.delete("confirmDelete");
  const withoutDetails = `/admin/media${closeParams.size ? `?${closeParams}` : ""}`;
  const zone = useListTimeZone();
  const uploadedLabel = ta("table.withZone", { label: t("library.uploaded"), zone });
  const usageText = (u: { kind: string; title: string }) =>
    u.kind === "post" || u.kind === "swaper" || u.kind === "ad" || u.kind === "link" || u.kind === "avatar"
      ? t(`library.usage.${u.kind}`, { title: u.title })
      : t("library.usage.settings");

  return (
    <section aria-labelledby="media-title" className="space-y-6">
      <h1 id="media-title" className="text-3xl font-bold tracking-tight">
        {t("library.title")}
      </h1>
      <p className="text-zinc-700 dark:text-zinc-300">{t("library.intro")}</p>
      {actionData?.error === "inUse" && "name" in actionData ? (
        <FormAlert>
          {t("library.inUse", {
            name: actionData.name,
            count: actionData.usages.length,
            places: actionData.usages.map(usageText).join(", "),
          })}
        </FormAlert>
      ) : (
        actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>
      )}

      {confirming && (
        <ConfirmDelete
          text={t("library.deleteConfirm", { name: confirming.originalName })}
          id={confirming.id}
          back={back}
        />
      )}

      {details && <MediaDetails media={details} closeHref={withoutDetails} />}

      <UploadForm maxBytes={maxBytes} />

      <FilterBar
        label={t("library.search")}
        testId="media-filters"
        search={{ id: "media-q", label: t("library.search"), q }}
        narrowSearch
        sort={{
          id: "media-sort",
          label: t("library.sort"),
          value: sort,
          options: MEDIA_SORTS.map((key) => ({ value: key, label: t(`library.sorts.${key}`) })),
        }}
        button={ta("list.search")}
      />

      {items.length === 0 ? (
        q ? (
          <EmptyState
            text={t("library.noMatch", { q })}
            action={{ to: "/admin/media", label: t("library.clearSearch") }}
          />
        ) : (
          <EmptyState text={t("library.emptyFirst")} />
        )
      ) : (
        <CardTable
          testId="media-table"
          caption={t("library.caption")}
          columns={[
            { label: t("library.preview") },
            { label: t("library.name") },
            { label: t("library.dimensions") },
            { label: t("library.size"), numeric: true },
            { label: uploadedLabel },
            { label: t("library.usedIn") },
            { label: t("library.actions") },
          ]}
        >
          {items.map((item) => (
            <CardRow key={item.id}>
              <CardCell label={t("library.preview")} bare>
                <img
                  src={item.thumb}
                  width={item.thumbWidth}
                  height={item.thumbHeight}
                  alt=""
                  loading="lazy"
                  className="h-12 w-20 rounded object-cover max-md:h-24 max-md:w-40"
                />
              </CardCell>
              <CardCell label={t("library.name")} rowHeader className="break-words md:max-w-48">
                <span className="min-w-0 break-all font-medium">{item.originalName}</span>
              </CardCell>
              <CardCell label={t("library.dimensions")} className="whitespace-nowrap tabular-nums">
                {item.width} × {item.height}
              </CardCell>
              <CardCell label={t("library.size")} numeric className="whitespace-nowrap">
                {formatBytes(item.size)}
              </CardCell>
              <CardCell label={uploadedLabel}>
                <ShortTime iso={item.timeCreated} locale={locale} zone={zone} />
              </CardCell>
              <CardCell label={t("library.usedIn")}>
                {item.usages.length === 0 ? (
                  <span className="text-zinc-600 dark:text-zinc-400">{t("library.unused")}</span>
                ) : (
                  <ul className="min-w-0">
                    {item.usages.map((u) => (
                      <li key={`${u.kind}:${u.id}`}>
                        <Link to={usageHref(u)} className="break-words text-blue-800 underline dark:text-blue-300">
                          {usageText(u)}
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </CardCell>
              <CardCell label={t("library.actions")} bare>
                <div className="flex flex-wrap items-start gap-2">
                  <Link
                    to={withParams({ details: item.id })}
                    className={`${ADMIN_BUTTON} whitespace-nowrap`}
                    aria-label={t("library.detailsFor", { name: item.originalName })}
                  >
                    {t("library.details")}
                  </Link>
                  <RowMenu label={t("library.more", { name: item.originalName })}>
                    <button
                      type="button"
                      className={ADMIN_BUTTON}
                      aria-label={`${t("library.copyUrl")}: ${item.originalName}`}
                      onClick={() => {
                        void navigator.clipboard?.writeText(item.url).then(() => setCopied(item.id));
                      }}
                    >
                      {copied === item.id ? t("library.copied") : t("library.copyUrl")}
                    </button>
                    <Link
                      to={withParams({ confirmDelete: item.id })}
                      className={`${ADMIN_BUTTON} text-red-700 dark:text-red-400`}
                      aria-label={t("library.deleteFile", { name: item.originalName })}
                    >
                      {ta("list.delete")}
                    </Link>
                  </RowMenu>
                </div>
              </CardCell>
            </CardRow>
          ))}
        </CardTable>
      )}

      <AdminPagination page={loaderData.page} pageCount={loaderData.pageCount} withParams={withParams} />
    </section>
  );
}
