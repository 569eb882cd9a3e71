/**
 * HTML that the server produced from Markdown and sanitized (renderMarkdown and
 * renderComment in app/server/markdown.server.ts, renderPost in
 * app/server/post-render.server.ts), or a search snippet (app/server/search/
 * snippet.server.ts: escaped text and <mark> only). The only place raw HTML
 * reaches the page: never pass anything else here.
 */
export function SanitizedHtml({ html, className }: { html: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: input is sanitized (renderMarkdown) or escaped (search snippets) on the server
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
