/**
 * HTML that the server produced from Markdown and sanitized
 * (app/server/markdown.server.ts). The only place raw HTML reaches the page:
 * never pass anything else here.
 */
export function SanitizedHtml({ html, className }: { html: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: input is sanitized on the server by renderMarkdown
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
