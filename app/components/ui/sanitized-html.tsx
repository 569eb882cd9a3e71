import { localizeHtmlLinks } from "../../lib/i18n/localized-path.ts";
import { useLocalePrefix } from "../../lib/i18n/use-locale-prefix.ts";

/**
 * HTML that the server produced from Markdown and sanitized (renderMarkdown and
 * renderComment in app/server/render/markdown.server.ts, renderPost in
 * app/server/render/post-render.server.ts), or a search snippet (app/server/search/
 * snippet.server.ts: escaped text and <mark> only), or that HTML read back from the
 * server-rendered page (DocumentHtml in app/components/document-parts.tsx). The only
 * place raw HTML reaches the page: never pass anything else here.
 *
 * Its links to the site's pages keep the page's language (issue 49): the stored HTML says
 * `/about`, a reader on a /zh page gets `/zh/about`.
 */
export function SanitizedHtml({ html, className, id }: { html: string; className?: string; id?: string }) {
  const prefix = useLocalePrefix();
  // biome-ignore lint/security/noDangerouslySetInnerHtml: input is sanitized (renderMarkdown) or escaped (search snippets) on the server
  return <div id={id} className={className} dangerouslySetInnerHTML={{ __html: localizeHtmlLinks(html, prefix) }} />;
}
