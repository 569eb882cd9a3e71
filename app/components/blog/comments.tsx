import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { Link } from "../../lean/link.tsx";
import { formatDate } from "../../lib/format.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { COMMENT_MAX_LENGTH } from "../../lib/schemas/limits.ts";
import { Field, FormAlert } from "../ui/field.tsx";
import { SanitizedHtml } from "../ui/sanitized-html.tsx";
import { useClientValidation } from "../ui/use-client-validation.ts";

export interface CommentItem {
  id: string;
  parentId: string | null;
  authorId: string | null;
  authorName: string | null;
  bodyHtml: string;
  status: "approved" | "pending";
  createdAt: string;
  /** A reply from the Fediverse: its author's handle and the note's address. */
  remote: { handle: string; url: string } | null;
  replies: CommentItem[];
}

/** Who may do what in the comment section, decided by the loader. */
export type CommentAccess = "open" | "signIn" | "verify" | "closed";

/** What the action answered when it did not redirect. */
export interface CommentActionResult {
  intent?: string;
  parentId?: string | null;
  fieldErrors?: Record<string, string>;
  formError?: string;
  retryAfter?: number;
}

interface CommentsProps {
  comments: CommentItem[];
  viewer: { id: string; isAdmin: boolean } | null;
  access: CommentAccess;
  locale: Locale;
  /** Where "Sign in" returns to and where "Verify" points. */
  loginHref: string;
  accountHref: string;
  result: CommentActionResult | undefined;
  /** The post's author: their comments carry the "Author" badge. */
  postAuthorId: string | null;
}

const BUTTON =
  "rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus:outline-none focus:ring-2 focus:ring-blue-600/50 disabled:opacity-60";
const SMALL_BUTTON =
  "rounded px-2 py-1 text-sm text-zinc-700 underline hover:bg-zinc-100 focus:outline-none focus:ring-2 focus:ring-blue-600/50 dark:text-zinc-300 dark:hover:bg-zinc-800";

/** The hidden field bots fill in: out of sight and out of the accessibility tree. */
function Honeypot() {
  const { t } = useTranslation("post");
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label>
        {t("comments.website")}
        <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/** The comment form, or one reply form (with `parentId`). Works without JavaScript. */
function CommentForm({ parentId, result }: { parentId?: string; result: CommentActionResult | undefined }) {
  const { t } = useTranslation("post");
  const m = useMessage();
  const navigation = useNavigation();
  const { clientErrors, onSubmit, onFocus } = useClientValidation(() =>
    import("../../lib/schemas/comment.ts").then((m) => m.commentSchema),
  );
  const intent = parentId ? "reply" : "comment";
  const mine = result?.intent === intent && (result.parentId ?? undefined) === parentId;
  const serverError = mine ? (result?.fieldErrors?.body ?? result?.formError) : undefined;
  const error = clientErrors?.body ?? serverError;
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    (navigation.formData?.get("parentId") ?? undefined) === parentId;
  return (
    <Form method="post" noValidate onSubmit={onSubmit} onFocus={onFocus} className="relative space-y-3">
      <input type="hidden" name="intent" value={intent} />
      {parentId && <input type="hidden" name="parentId" value={parentId} />}
      <Field
        label={parentId ? t("comments.replyLabel") : t("comments.label")}
        name="body"
        rows={parentId ? 3 : 5}
        required
        maxLength={COMMENT_MAX_LENGTH}
        hint={parentId ? undefined : t("comments.hint")}
        error={error ? m(error, { seconds: (mine ? result?.retryAfter : undefined) ?? 60 }) : null}
      />
      <Honeypot />
      <button type="submit" disabled={busy} className={BUTTON}>
        {parentId ? t("comments.submitReply") : t("comments.submit")}
      </button>
    </Form>
  );
}

function DeleteButton({ commentId, hasReplies }: { commentId: string; hasReplies: boolean }) {
  const { t } = useTranslation("post");
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (!window.confirm(hasReplies ? t("comments.confirmDeleteThread") : t("comments.confirmDelete"))) {
          event.preventDefault();
        }
      }}
    >
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="commentId" value={commentId} />
      <button type="submit" className={SMALL_BUTTON}>
        {t("comments.delete")}
      </button>
    </Form>
  );
}

/** The first letter of a name, for the placeholder beside a remote reply. */
function initial(name: string): string {
  const first = [...name.replace(/^@/, "").trim()][0] ?? "?";
  return first.toUpperCase();
}

function Comment({ comment, props, isReply }: { comment: CommentItem; props: CommentsProps; isReply: boolean }) {
  const { t } = useTranslation("post");
  const { viewer, access, locale, result } = props;
  const canDelete = viewer !== null && (viewer.isAdmin || comment.authorId === viewer.id);
  const replyOpen = result?.intent === "reply" && result.parentId === comment.id;
  return (
    <li id={`comment-${comment.id}`} className="scroll-mt-24">
      <article className="rounded-md border border-zinc-200 p-4 dark:border-zinc-800" data-testid="comment">
        <header className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-zinc-600 dark:text-zinc-400">
          {comment.remote && (
            // Initials, not the remote avatar: readers' browsers never fetch from the author's server.
            <span
              aria-hidden="true"
              className="inline-flex h-6 w-6 items-center justify-center rounded-full bg-violet-100 text-xs font-semibold text-violet-900 dark:bg-violet-900 dark:text-violet-100"
            >
              {initial(comment.authorName ?? comment.remote.handle)}
            </span>
          )}
          <span className="font-medium text-zinc-900 dark:text-zinc-100">
            {comment.authorName ?? t("comments.formerUser")}
          </span>
          {comment.remote && (
            <span className="break-all" data-testid="remote-handle">
              {comment.remote.handle}
            </span>
          )}
          {comment.authorId !== null && comment.authorId === props.postAuthorId && (
            <span
              className="rounded bg-blue-100 px-1.5 py-0.5 text-xs font-medium text-blue-900 dark:bg-blue-900 dark:text-blue-100"
              data-testid="author-badge"
            >
              {t("comments.authorBadge")}
            </span>
          )}
          <span aria-hidden="true">·</span>
          <time dateTime={comment.createdAt}>{formatDate(comment.createdAt, locale)}</time>
          {comment.remote && (
            <>
              <span aria-hidden="true">·</span>
              <a href={comment.remote.url} rel="nofollow ugc noopener noreferrer" className="underline">
                {t("comments.remoteLink")}
              </a>
            </>
          )}
          {comment.status === "pending" && (
            <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">
              {t("comments.pending")}
            </span>
          )}
        </header>
        <SanitizedHtml className="markdown mt-2 break-words" html={comment.bodyHtml} />
        {(canDelete || (!isReply && access === "open")) && (
          <div className="mt-3 flex flex-wrap items-start gap-3">
            {!isReply && access === "open" && (
              <details className="min-w-0 flex-1" open={replyOpen || undefined}>
                <summary className={`${SMALL_BUTTON} inline-block cursor-pointer`}>{t("comments.reply")}</summary>
                <div className="mt-3">
                  <CommentForm parentId={comment.id} result={result} />
                </div>
              </details>
            )}
            {canDelete && <DeleteButton commentId={comment.id} hasReplies={comment.replies.length > 0} />}
          </div>
        )}
      </article>
      {comment.replies.length > 0 && (
        <ol aria-label={t("comments.repliesLabel")} className="mt-3 ml-6 space-y-3 sm:ml-10">
          {comment.replies.map((reply) => (
            <Comment key={reply.id} comment={reply} props={props} isReply />
          ))}
        </ol>
      )}
    </li>
  );
}

/** The comment section of a post: the list, replies under their comment, and the form. */
export function Comments(props: CommentsProps) {
  const { t } = useTranslation("post");
  const m = useMessage();
  const { comments, access, result, loginHref, accountHref } = props;
  // After a successful post the list changes; a new key empties the forms.
  const formKey = comments.map((c) => `${c.id}:${c.replies.length}`).join(",");
  return (
    <section id="comments" aria-labelledby="comments-title" className="mt-12 scroll-mt-24">
      <h2 id="comments-title" className="text-2xl font-semibold">
        {t("comments.title")}
      </h2>
      {result?.intent === "delete" && result.formError && (
        <div className="mt-4">
          <FormAlert>{m(result.formError)}</FormAlert>
        </div>
      )}
      {comments.length === 0 ? (
        <p className="mt-4 text-zinc-600 dark:text-zinc-400">{t("comments.empty")}</p>
      ) : (
        <ol className="mt-6 space-y-4" key={formKey}>
          {comments.map((comment) => (
            <Comment key={comment.id} comment={comment} props={props} isReply={false} />
          ))}
        </ol>
      )}
      <div className="mt-8">
        {access === "open" && <CommentForm key={formKey} result={result} />}
        {access === "signIn" && (
          <p>
            <Link to={loginHref} className="text-blue-700 underline dark:text-blue-400">
              {t("comments.signIn")}
            </Link>
          </p>
        )}
        {access === "verify" && (
          <p>
            <Link to={accountHref} className="text-blue-700 underline dark:text-blue-400">
              {t("comments.verify")}
            </Link>
          </p>
        )}
        {access === "closed" && <p className="text-zinc-600 dark:text-zinc-400">{t("comments.closed")}</p>}
      </div>
    </section>
  );
}
