// The admin posts list's own parts (app/routes/admin/blog.tsx): its filter bar, the bulk
// action bar, the schedule panel and its empty states. The table parts they sit with are
// shared (table-parts.tsx).
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Link } from "../../lean/link.tsx";
import { ADMIN_POST_SORTS, ADMIN_POST_STATUSES } from "../../lib/admin-content.ts";
import { browserOffsetAt } from "../../lib/editor-values.ts";
import { describedBy, FieldMessages } from "../ui/field.tsx";
import { BAR_BUTTON, BarSelect, EmptyState, FilterBar, type LabelTone } from "./table-parts.tsx";

type PostStatus = (typeof ADMIN_POST_STATUSES)[number];

/** The editor's address for a new post. */
export const NEW_POST = "/posts/createPost";

/** The colour of each status's label. */
export const STATUS_TONE: Record<PostStatus, LabelTone> = { published: "green", scheduled: "blue", draft: "zinc" };

type Option = { id: string; name: string };

/** Search and filters in one row of controls of one height; GET, so the list's URL says what it shows. */
export function PostFilters({
  trash,
  q,
  filters,
  sort,
  categories,
  tags,
  authors,
}: {
  trash: boolean;
  q: string;
  filters: { status: string | null; categoryId: string | null; tagId: string | null; authorId: string | null };
  sort: string;
  categories: readonly Option[];
  tags: readonly Option[];
  authors: ReadonlyArray<{ id: string; name: string | null }>;
}) {
  const { t } = useTranslation("adminContent");
  const selects = [
    {
      name: "status",
      label: t("blog.status"),
      value: filters.status,
      any: t("blog.anyStatus"),
      options: ADMIN_POST_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
    },
    {
      name: "category",
      label: t("blog.category"),
      value: filters.categoryId,
      any: t("blog.anyCategory"),
      options: categories.map((c) => ({ value: c.id, label: c.name })),
    },
    {
      name: "tag",
      label: t("blog.tag"),
      value: filters.tagId,
      any: t("blog.anyTag"),
      options: tags.map((tag) => ({ value: tag.id, label: tag.name })),
    },
    {
      name: "author",
      label: t("blog.author"),
      value: filters.authorId,
      any: t("blog.anyAuthor"),
      options: authors.map((a) => ({ value: a.id, label: a.name ?? t("blog.unnamedAuthor") })),
    },
  ];
  return (
    <FilterBar
      label={t("blog.filters")}
      testId="post-filters"
      search={{ id: "blog-q", label: t("blog.search"), q }}
      keep={trash ? { view: "trash" } : {}}
      sort={{
        id: "blog-sort",
        label: t("blog.sortBy"),
        value: sort,
        options: ADMIN_POST_SORTS.map((key) => ({ value: key, label: t(`blog.sort.${key}`) })),
      }}
      nowrap="xl"
      button={t("blog.apply")}
    >
      {selects.map((select) => (
        <BarSelect key={select.name} id={`blog-${select.name}`} {...select} value={select.value ?? ""} inline />
      ))}
    </FilterBar>
  );
}

/** The id of the bulk form; each row's checkbox names it (`form=`), since rows hold forms of their own. */
export const BULK_FORM = "bulk-posts";

/** "With selected posts: [action] [category] Apply": posts the checked rows' ids. */
export function BulkBar({ back, categories }: { back: string; categories: readonly Option[] }) {
  const { t } = useTranslation("adminContent");
  return (
    <Form
      id={BULK_FORM}
      method="post"
      className="flex flex-wrap items-end gap-x-3 gap-y-2 rounded-lg bg-zinc-50 p-3 dark:bg-zinc-900"
      data-testid="bulk-bar"
    >
      <input type="hidden" name="intent" value="bulk" />
      <input type="hidden" name="back" value={back} />
      <BarSelect
        id="bulk-action"
        name="bulk"
        label={t("blog.bulkLabel")}
        value=""
        options={[
          { value: "", label: t("blog.bulkChoose") },
          { value: "publish", label: t("blog.bulkPublish") },
          { value: "unpublish", label: t("blog.bulkUnpublish") },
          { value: "category", label: t("blog.bulkCategory") },
          { value: "trash", label: t("blog.bulkTrash") },
        ]}
      />
      <BarSelect
        id="bulk-category"
        name="categoryId"
        label={t("blog.bulkTarget")}
        value=""
        any={t("blog.bulkTargetChoose")}
        options={categories.map((c) => ({ value: c.id, label: c.name }))}
      />
      <button type="submit" className={BAR_BUTTON}>
        {t("blog.bulkApply")}
      </button>
    </Form>
  );
}

/**
 * Sends the browser's UTC offset at the chosen moment with the schedule form
 * (without JavaScript it stays 0: the time is read as UTC, as the hint says).
 */
function withBrowserOffset(event: FormEvent<HTMLFormElement>) {
  const form = event.currentTarget;
  const local = form.elements.namedItem("publishAtLocal");
  const tz = form.elements.namedItem("publishAtTz");
  if (local instanceof HTMLInputElement && tz instanceof HTMLInputElement) {
    tz.value = String(browserOffsetAt(local.value));
  }
}

/** The panel that schedules one post (reached by `?schedule=id`, so it works without JavaScript). */
export function SchedulePanel({
  post,
  title,
  back,
  fieldError,
}: {
  post: { id: string };
  title: string;
  back: string;
  fieldError: string | null;
}) {
  const { t } = useTranslation("adminContent");
  return (
    <section
      aria-labelledby="schedule-title"
      className="rounded-lg border border-blue-300 bg-blue-50 p-4 dark:border-blue-800 dark:bg-blue-950"
    >
      <h2 id="schedule-title" className="font-semibold">
        {t("blog.scheduleTitle", { title })}
      </h2>
      <Form method="post" className="mt-3 space-y-3" onSubmit={withBrowserOffset}>
        <input type="hidden" name="intent" value="schedule" />
        <input type="hidden" name="id" value={post.id} />
        <input type="hidden" name="back" value={back} />
        <input type="hidden" name="publishAtTz" defaultValue="0" />
        <div className="space-y-1">
          <label htmlFor="schedule-at" className="block text-sm font-medium">
            {t("blog.scheduleAt")}
          </label>
          <input
            id="schedule-at"
            type="datetime-local"
            name="publishAtLocal"
            required
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={describedBy("schedule-at", t("blog.scheduleHint"), fieldError)}
            className="block rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
          />
          <FieldMessages id="schedule-at" hint={t("blog.scheduleHint")} error={fieldError} />
        </div>
        <div className="flex gap-3">
          <button type="submit" className="rounded-md bg-blue-700 px-3 py-1.5 text-white hover:bg-blue-800">
            {t("blog.scheduleButton")}
          </button>
          <Link to={back} className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700">
            {t("blog.cancel")}
          </Link>
        </div>
      </Form>
    </section>
  );
}

/** What an empty posts list says, and what to do next. */
export function PostsEmpty({
  trash,
  status,
  filtered,
}: {
  trash: boolean;
  status: PostStatus | null;
  /** A search or a filter other than the status is on. */
  filtered: boolean;
}) {
  const { t } = useTranslation("adminContent");
  const write = { to: NEW_POST, label: t("blog.writeFirst") };
  if (trash) return <EmptyState text={t("blog.trashEmpty")} />;
  if (filtered)
    return <EmptyState text={t("blog.emptyFiltered")} action={{ to: "/admin/blog", label: t("blog.clearFilters") }} />;
  if (status === "draft") return <EmptyState text={t("blog.emptyDrafts")} action={write} />;
  if (status === "scheduled") return <EmptyState text={t("blog.emptyScheduled")} action={write} />;
  if (status === "published") return <EmptyState text={t("blog.emptyPublished")} action={write} />;
  return <EmptyState text={t("blog.emptyFirst")} action={write} />;
}
