import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import "../../lib/i18n/admin-strings.ts";
import { createI18n } from "../../lib/i18n/i18n.ts";
import {
  CardCell,
  CardRow,
  CardTable,
  FilterBar,
  LanguageBadges,
  RowMenu,
  ShortTime,
  StatusLabel,
} from "./table-parts.tsx";

function render(element: React.ReactNode, locale: "en" | "zh" = "en"): string {
  const router = createMemoryRouter([{ path: "/", element }]);
  return renderToString(
    <I18nextProvider i18n={createI18n(locale)}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

describe("the admin table parts", () => {
  it("keep a status label on one line, never broken inside a word", () => {
    const html = render(<StatusLabel tone="green">已发布</StatusLabel>, "zh");
    expect(html).toContain("whitespace-nowrap");
    expect(html).toContain("break-keep");
    expect(html).toContain(">已发布<");
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("render a short time with its exact instant, in the zone given", () => {
    // Held: the year shows only when it is not the current one.
    vi.useFakeTimers({ now: new Date("2026-11-29T00:00:00.000Z"), toFake: ["Date"] });
    const html = render(<ShortTime iso="2026-01-28T06:05:00.000Z" locale="zh" zone="Asia/Shanghai" />, "zh");
    expect(html).toContain('dateTime="2026-01-28T06:05:00.000Z"');
    expect(html).toMatch(/1月28日 14:05/);
  });

  it("put secondary actions in a disclosure that works without JavaScript", () => {
    const html = render(
      <RowMenu label="More actions: “Hello”">
        <button type="submit">Publish</button>
      </RowMenu>,
    );
    expect(html).toMatch(/<details[^>]*><summary[^>]*aria-label="More actions: “Hello”"[^>]*>More/);
    expect(html).toContain("<button");
  });

  it("name each language a post has", () => {
    const html = render(<LanguageBadges languages={["en", "zh"]} />);
    expect(html).toContain('title="English"');
    expect(html).toContain('title="Chinese"');
  });

  it("label each card cell with its column, and keep the header row for screen readers on cards", () => {
    const html = render(
      <CardTable columns={[{ label: "Status" }, { label: "Select", onCards: true }]}>
        <CardRow>
          <CardCell label="Status">Draft</CardCell>
          <CardCell label="Title" bare>
            Hi
          </CardCell>
        </CardRow>
      </CardTable>,
    );
    expect(html).toContain('data-label="Status"');
    expect(html).not.toContain('data-label="Title"');
    expect(html).toMatch(/<th scope="col" class="[^"]*max-md:sr-only[^"]*">Status<\/th>/);
    expect(html).toMatch(/<th scope="col" class="[^"]*max-md:block[^"]*">Select<\/th>/);
  });
});

describe("FilterBar", () => {
  it("sends its search, the kept values and its selects as one GET form", () => {
    const html = render(
      <FilterBar
        label="Filters"
        testId="x-filters"
        search={{ id: "x-q", label: "Search", q: "moon" }}
        keep={{ view: "trash" }}
        sort={{ id: "x-sort", label: "Sort", value: "old", options: [{ value: "old", label: "Oldest" }] }}
        nowrap="lg"
        button="Apply"
      >
        <select name="status" />
      </FilterBar>,
    );
    const form = /<form [^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toContain('method="get"');
    expect(form).toContain('role="search"');
    expect(form).toContain('aria-label="Filters"');
    expect(form).toContain("lg:flex-nowrap");
    expect(html).toMatch(/<input type="hidden" name="view" value="trash"\/>/);
    expect(html).toMatch(/<label for="x-q" class="sr-only">Search<\/label>/);
    expect(html).toMatch(/<input id="x-q" type="search"[^>]*name="q" value="moon"/);
    // The search, then the row's filters, then the sort menu.
    expect(html.indexOf('name="q"')).toBeLessThan(html.indexOf('name="status"'));
    expect(html.indexOf('name="status"')).toBeLessThan(html.indexOf('name="sort"'));
    expect(html).toMatch(/<label for="x-sort" class="sr-only">Sort<\/label>/);
    expect(html).toMatch(/<button type="submit"[^>]*>Apply<\/button>/);
  });

  it("has no search box when it is given none", () => {
    const html = render(
      <FilterBar label="Filters" testId="x-filters" button="Filter">
        <select name="actor" />
      </FilterBar>,
    );
    expect(html).not.toContain('type="search"');
    expect(html).not.toContain("flex-nowrap");
    expect(html).not.toContain('name="sort"');
  });
});
