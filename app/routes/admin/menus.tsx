import { type DragEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation, useSubmit } from "react-router";
import { ADMIN_BUTTON } from "../../components/admin/list-parts.tsx";
import { FooterMenu, HeaderMenu } from "../../components/layout/menu-links.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { Link } from "../../lean/link.tsx";
import type { FieldErrors } from "../../lib/forms.ts";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";
import { isLocale, type Locale } from "../../lib/i18n/locale.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import {
  BUILTIN_TARGETS,
  type BuiltinTarget,
  isMenuAddress,
  MENU_LABEL_MAX,
  MENU_MAX_ITEMS,
  MENU_URL_MAX,
  MENUS,
  type MenuItem,
  type MenuName,
} from "../../lib/menus.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { menuChoices, menuItems, resetMenu, resolveMenu, saveMenu } from "../../server/menus/menus.server.ts";
import { cachedFooterLinks } from "../../server/site/footer-links.server.ts";
import type { Route } from "./+types/menus";

// `/admin/menus`: the main (header) and footer menus, per language (decision 035). Every change
// is a form post (add, remove, move up or down, labels, reset), so it all works without
// JavaScript; with it, rows can also be dragged. Admins only, checked by the loader and action.

function pick(url: URL, fallback: Locale): { menu: MenuName; lang: Locale } {
  const menu = url.searchParams.get("menu");
  const lang = url.searchParams.get("lang");
  return {
    menu: menu === "footer" ? "footer" : "main",
    lang: lang && isLocale(lang) ? lang : fallback,
  };
}

const here = (menu: MenuName, lang: Locale) => `/admin/menus?menu=${menu}&lang=${lang}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = getApp(context);
  const { menu, lang } = pick(new URL(request.url), getRequest(context).locale);
  const [{ items, custom }, choices, links] = await Promise.all([
    menuItems(db, menu, lang),
    menuChoices(db, lang),
    cachedFooterLinks(db),
  ]);
  const hasFriendLinks = links.length > 0;
  // Each row's own name (its label empty), for the placeholder; and the preview, as readers see it.
  const names = await Promise.all(
    items.map(
      async (item) => (await resolveMenu(db, [{ ...item, label: "" }], lang, { hasFriendLinks: true }))[0] ?? null,
    ),
  );
  const preview = await resolveMenu(db, items, lang, { hasFriendLinks });
  return { menu, lang, items, custom, choices, names, preview };
}

interface MenuFailure {
  fieldErrors?: FieldErrors;
  formError?: string;
}

/** Reads the rows' labels from the form (`label-{i}`), keeping the stored one when a field is absent. */
function withLabels(items: readonly MenuItem[], form: FormData): MenuItem[] | { field: string } {
  const out: MenuItem[] = [];
  for (const [i, item] of items.entries()) {
    const value = form.get(`label-${i}`);
    const label = typeof value === "string" ? value.trim() : item.label;
    if (label.length > MENU_LABEL_MAX) return { field: `label-${i}` };
    if (item.kind === "url" && label === "") return { field: `label-${i}` };
    out.push({ ...item, label });
  }
  return out;
}

/** The item the add fields describe, or the field that is wrong. */
function addedItem(form: FormData): MenuItem | { field: string; error: string } {
  const target = String(form.get("addTarget") ?? "");
  const label = String(form.get("addLabel") ?? "").trim();
  if (label.length > MENU_LABEL_MAX) return { field: "addLabel", error: "adminPages:menus.errors.labelTooLong" };
  const [kind, ...rest] = target.split(":");
  const ref = rest.join(":");
  if (kind === "url") {
    const address = String(form.get("addUrl") ?? "").trim();
    if (!isMenuAddress(address)) return { field: "addUrl", error: "adminPages:menus.errors.address" };
    if (!label) return { field: "addLabel", error: "adminPages:menus.errors.labelRequired" };
    return { kind: "url", ref: address, label };
  }
  if (kind === "builtin" && (BUILTIN_TARGETS as readonly string[]).includes(ref)) return { kind, ref, label };
  if ((kind === "page" || kind === "category" || kind === "tag" || kind === "series" || kind === "author") && ref) {
    return { kind, ref, label };
  }
  return { field: "addTarget", error: "adminPages:menus.errors.target" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const { menu, lang } = pick(new URL(request.url), getRequest(context).locale);
  const intent = String(form.get("intent") ?? "save");
  const back = () =>
    redirect(here(menu, lang), { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });

  if (intent === "reset") {
    await app.db.transaction().execute(async (trx) => {
      await resetMenu(trx, menu, lang);
      await audit(trx, admin, "menu.reset", { type: "menu", id: `${menu}:${lang}` });
    });
    return back();
  }

  const current = (await menuItems(app.db, menu, lang)).items;
  const labelled = withLabels(current, form);
  if (!Array.isArray(labelled)) {
    return data<MenuFailure>({ fieldErrors: { [labelled.field]: "adminPages:menus.errors.label" } }, { status: 400 });
  }
  let items = labelled;
  const [verb, at] = intent.split(":");
  const index = Number(at);
  const valid = Number.isInteger(index) && index >= 0 && index < items.length;
  if (verb === "add") {
    if (items.length >= MENU_MAX_ITEMS)
      return data<MenuFailure>({ formError: "adminPages:menus.errors.full" }, { status: 400 });
    const added = addedItem(form);
    if ("field" in added) return data<MenuFailure>({ fieldErrors: { [added.field]: added.error } }, { status: 400 });
    items = [...items, added];
  } else if (verb === "remove" && valid) {
    items = items.filter((_, i) => i !== index);
  } else if ((verb === "up" || verb === "down") && valid) {
    const to = verb === "up" ? index - 1 : index + 1;
    if (to >= 0 && to < items.length) {
      const next = [...items];
      [next[index], next[to]] = [next[to] as MenuItem, next[index] as MenuItem];
      items = next;
    }
  } else if (verb === "reorder") {
    const order = String(form.get("order") ?? "")
      .split(",")
      .map(Number);
    const sorted = [...order].sort((a, b) => a - b);
    if (order.length !== items.length || sorted.some((n, i) => n !== i)) {
      return data<MenuFailure>({ formError: "adminPages:menus.errors.order" }, { status: 400 });
    }
    items = order.map((i) => items[i] as MenuItem);
  } else if (verb !== "save") {
    return data<MenuFailure>({ formError: "adminPages:menus.errors.order" }, { status: 400 });
  }

  const saved = await app.db.transaction().execute(async (trx) => {
    if (!(await saveMenu(trx, menu, lang, items))) return false;
    await audit(trx, admin, "menu.update", { type: "menu", id: `${menu}:${lang}` }, { items: items.length });
    return true;
  });
  if (!saved) return data<MenuFailure>({ formError: "adminPages:menus.errors.target" }, { status: 400 });
  return back();
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminPages:menus.title", [NOINDEX]);
}

const LINK_CLASS = ({ isActive }: { isActive: boolean }) =>
  `block whitespace-nowrap rounded px-2 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800 ${isActive ? "font-semibold" : ""}`;

export default function MenusAdmin({ loaderData, actionData }: Route.ComponentProps) {
  useAdminStrings();
  const { t } = useTranslation("adminPages");
  const m = useMessage();
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const { menu, lang, items, custom, choices, names, preview } = loaderData;
  const errors = actionData?.fieldErrors ?? {};
  const busy = navigation.state !== "idle";

  const kindOf = (item: MenuItem): string => {
    if (item.kind === "url") return item.ref;
    if (item.kind === "builtin") return t(`menus.builtin.${item.ref as BuiltinTarget}`);
    return t(`menus.kinds.${item.kind}`);
  };

  const onDrop = (event: DragEvent<HTMLLIElement>, to: number) => {
    event.preventDefault();
    const from = dragging;
    setDragging(null);
    if (from === null || from === to || !formRef.current) return;
    const order = items.map((_, i) => i);
    const [moved] = order.splice(from, 1);
    order.splice(to, 0, moved ?? from);
    const body = new FormData(formRef.current);
    body.set("intent", "reorder");
    body.set("order", order.join(","));
    submit(body, { method: "post", action: here(menu, lang) });
  };

  const button = `${ADMIN_BUTTON} disabled:opacity-40`;

  return (
    <section aria-labelledby="menus-title" className="max-w-4xl space-y-6">
      <h1 id="menus-title" className="text-3xl font-bold tracking-tight">
        {t("menus.title")}
      </h1>
      <p className="text-zinc-700 dark:text-zinc-300">{t("menus.intro")}</p>

      <nav aria-label={t("menus.choose")} className="flex flex-wrap gap-2">
        {MENUS.flatMap((name) =>
          (["en", "zh"] as const).map((l) => {
            const current = name === menu && l === lang;
            return (
              <Link
                key={`${name}-${l}`}
                to={here(name, l)}
                aria-current={current ? "page" : undefined}
                className={`rounded-md border px-3 py-1.5 text-sm ${current ? "border-blue-700 bg-blue-50 font-semibold dark:border-blue-400 dark:bg-blue-950" : "border-zinc-300 dark:border-zinc-700"}`}
              >
                {t("menus.tab", { menu: t(`menus.names.${name}`), language: l === "en" ? "English" : "中文" })}
              </Link>
            );
          }),
        )}
      </nav>

      {actionData?.formError && <FormAlert>{m(actionData.formError)}</FormAlert>}
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{custom ? t("menus.custom") : t("menus.default")}</p>

      <Form method="post" action={here(menu, lang)} ref={formRef} className="space-y-6">
        {/* Enter in a field saves the labels, not the first row's buttons. */}
        <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true">
          {t("menus.saveLabels")}
        </button>
        <ol className="space-y-2" data-testid="menu-items" aria-label={t("menus.items")}>
          {items.map((item, i) => {
            const name = item.label || names[i]?.label || kindOf(item);
            const errorId = `label-${i}-error`;
            return (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions; the page reloads after every change
                key={i}
                draggable
                onDragStart={() => setDragging(i)}
                onDragOver={(event) => event.preventDefault()}
                onDrop={(event) => onDrop(event, i)}
                data-testid={`menu-item-${i}`}
                className={`flex flex-wrap items-center gap-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-800 ${dragging === i ? "opacity-50" : ""}`}
              >
                <span aria-hidden="true" className="cursor-grab select-none px-1 text-zinc-500" title={t("menus.drag")}>
                  ⠿
                </span>
                <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
                  <span className="text-zinc-600 dark:text-zinc-400">
                    {i + 1}. {kindOf(item)}
                  </span>
                  <input
                    name={`label-${i}`}
                    defaultValue={item.label}
                    placeholder={names[i]?.label ?? ""}
                    maxLength={MENU_LABEL_MAX}
                    aria-invalid={errors[`label-${i}`] ? true : undefined}
                    aria-describedby={errors[`label-${i}`] ? errorId : undefined}
                    className="w-full min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
                  />
                  {errors[`label-${i}`] && (
                    <span id={errorId} className="text-red-700 dark:text-red-400">
                      {m(errors[`label-${i}`] ?? "")}
                    </span>
                  )}
                </label>
                <div className="flex gap-1">
                  <button
                    type="submit"
                    name="intent"
                    value={`up:${i}`}
                    className={button}
                    disabled={i === 0 || busy}
                    aria-label={t("menus.moveUp", { name })}
                  >
                    ↑
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value={`down:${i}`}
                    className={button}
                    disabled={i === items.length - 1 || busy}
                    aria-label={t("menus.moveDown", { name })}
                  >
                    ↓
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value={`remove:${i}`}
                    className={button}
                    disabled={busy}
                    aria-label={t("menus.remove", { name })}
                  >
                    {t("menus.removeShort")}
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
        {items.length === 0 && <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("menus.empty")}</p>}
        <div className="flex flex-wrap gap-3">
          <button type="submit" name="intent" value="save" className={button} disabled={busy}>
            {t("menus.saveLabels")}
          </button>
          {custom && (
            <button type="submit" name="intent" value="reset" className={button} disabled={busy}>
              {t("menus.reset")}
            </button>
          )}
        </div>

        <fieldset className="space-y-3 rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
          <legend className="px-1 font-medium">{t("menus.add")}</legend>
          <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
            <label className="flex min-w-0 flex-col gap-1 text-sm">
              {t("menus.target")}
              <select
                name="addTarget"
                aria-invalid={errors.addTarget ? true : undefined}
                className="w-full min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1.5 dark:border-zinc-700 dark:bg-zinc-900"
              >
                <optgroup label={t("menus.kinds.builtin")}>
                  {BUILTIN_TARGETS.map((b) => (
                    <option key={b} value={`builtin:${b}`}>
                      {t(`menus.builtin.${b}`)}
                    </option>
                  ))}
                </optgroup>
                {choices.pages.length > 0 && (
                  <optgroup label={t("menus.kinds.page")}>
                    {choices.pages.map((p) => (
                      <option key={p.id} value={`page:${p.id}`}>
                        {p.published ? p.name : t("menus.draftPage", { name: p.name })}
                      </option>
                    ))}
                  </optgroup>
                )}
                {(["categories", "tags", "series", "authors"] as const).map((group) => {
                  const kind = ({ categories: "category", tags: "tag", series: "series", authors: "author" } as const)[
                    group
                  ];
                  return choices[group].length > 0 ? (
                    <optgroup key={group} label={t(`menus.kinds.${kind}`)}>
                      {choices[group].map((c) => (
                        <option key={c.id} value={`${kind}:${c.id}`}>
                          {c.name}
                        </option>
                      ))}
                    </optgroup>
                  ) : null;
                })}
                <option value="url:">{t("menus.kinds.url")}</option>
              </select>
              {errors.addTarget && <span className="text-red-700 dark:text-red-400">{m(errors.addTarget)}</span>}
            </label>
            <label className="flex min-w-0 flex-col gap-1 text-sm">
              {t("menus.address")}
              <input
                name="addUrl"
                maxLength={MENU_URL_MAX}
                placeholder="https://…"
                aria-invalid={errors.addUrl ? true : undefined}
                className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 dark:border-zinc-700 dark:bg-zinc-900"
              />
              <span className="text-zinc-600 dark:text-zinc-400">{t("menus.addressHint")}</span>
              {errors.addUrl && <span className="text-red-700 dark:text-red-400">{m(errors.addUrl)}</span>}
            </label>
            <label className="flex min-w-0 flex-col gap-1 text-sm">
              {t("menus.label")}
              <input
                name="addLabel"
                maxLength={MENU_LABEL_MAX}
                aria-invalid={errors.addLabel ? true : undefined}
                className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 dark:border-zinc-700 dark:bg-zinc-900"
              />
              <span className="text-zinc-600 dark:text-zinc-400">{t("menus.labelHint")}</span>
              {errors.addLabel && <span className="text-red-700 dark:text-red-400">{m(errors.addLabel)}</span>}
            </label>
          </div>
          <button
            type="submit"
            name="intent"
            value="add"
            className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
            disabled={busy || items.length >= MENU_MAX_ITEMS}
          >
            {t("menus.addButton")}
          </button>
        </fieldset>
      </Form>

      <section aria-labelledby="menu-preview" className="space-y-2">
        <h2 id="menu-preview" className="text-xl font-semibold">
          {t("menus.preview")}
        </h2>
        <div
          lang={lang === "en" ? "en-US" : "zh-CN"}
          className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
          data-testid="menu-preview"
        >
          {menu === "main" ? (
            <HeaderMenu items={preview} linkClass={LINK_CLASS} />
          ) : (
            <FooterMenu items={preview} linkClass="hover:underline" />
          )}
        </div>
      </section>
    </section>
  );
}
