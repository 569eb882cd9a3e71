import type { ReactElement } from "react";
import { renderToString as renderOutsideRouter } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { DocumentHtml, DocumentPartsProvider } from "./document-parts.tsx";

/** Rendered on a page at `path` (the HTML's links follow the page's language). */
function renderToString(element: ReactElement, path = "/posts/detail/abc"): string {
  return renderOutsideRouter(<MemoryRouter initialEntries={[path]}>{element}</MemoryRouter>);
}

describe("DocumentHtml", () => {
  it("renders the HTML it is given (a data request's)", () => {
    const html = renderToString(<DocumentHtml id="body" className="markdown" html="<p>Hello</p>" />);
    expect(html).toBe('<div id="body" class="markdown"><p>Hello</p></div>');
  });

  it("renders this request's document part when given none (a document request, on the server)", () => {
    const parts = new Map([["body", "<p>From the loader</p>"]]);
    const html = renderToString(
      <DocumentPartsProvider value={parts}>
        <DocumentHtml id="body" html={null} />
      </DocumentPartsProvider>,
    );
    expect(html).toBe('<div id="body"><p>From the loader</p></div>');
  });

  it("prefers the HTML in the data over a document part of the same name", () => {
    const html = renderToString(
      <DocumentPartsProvider value={new Map([["body", "<p>stale</p>"]])}>
        <DocumentHtml id="body" html="<p>fresh</p>" />
      </DocumentPartsProvider>,
    );
    expect(html).toContain("fresh");
    expect(html).not.toContain("stale");
  });

  it("renders an empty element when there is neither (no document to read from)", () => {
    expect(renderToString(<DocumentHtml id="body" html={null} />)).toBe('<div id="body"></div>');
  });

  it("sends the HTML's links to the site's pages in the page's language", () => {
    const body = '<p><a href="/about">About</a> <a href="https://example.com/about">there</a></p>';
    expect(renderToString(<DocumentHtml id="body" html={body} />, "/zh/posts/detail/abc")).toBe(
      '<div id="body"><p><a href="/zh/about">About</a> <a href="https://example.com/about">there</a></p></div>',
    );
    expect(renderToString(<DocumentHtml id="body" html={body} />)).toBe(`<div id="body">${body}</div>`);
  });
});
