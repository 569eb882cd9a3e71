import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import "../../lib/i18n/admin-strings.ts";
import { createI18n } from "../../lib/i18n/i18n.ts";
import { AdminTable, EmailText, SelectAllBox, selectAllState } from "./list-table.tsx";

const LONG = "a.very.long.mailbox.name.for.testing@subdomain.example-university.edu.cn";

function render(element: React.ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element }]);
  return renderToString(
    <I18nextProvider i18n={createI18n("en")}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

describe("EmailText", () => {
  it("keeps the whole address as text, title and mailto link, cut only visually", () => {
    const html = renderToString(<EmailText email={LONG} />);
    const link = /<a [^>]*>(.*?)<\/a>/.exec(html);
    expect(link?.[1]).toBe(LONG);
    expect(html).toContain(`title="${LONG}"`);
    expect(html).toContain(`href="mailto:${LONG}"`);
    // One line with an ellipsis at a readable width; the whole address while focused.
    const classes = (/class="([^"]*)"/.exec(html)?.[1] ?? "").split(" ");
    expect(classes).toEqual(expect.arrayContaining(["block", "truncate", "max-w-64", "focus:whitespace-normal"]));
    expect(classes).not.toContain("break-all");
  });
});

describe("AdminTable", () => {
  it("scrolls sideways in its box rather than getting narrower than its minimum width", () => {
    const html = render(
      <AdminTable columns={["E-mail"]} rowCount={1} empty="none" minWidth="min-w-[64rem]">
        <tr>
          <td>x</td>
        </tr>
      </AdminTable>,
    );
    expect(html).toMatch(/<div tabindex="0" class="overflow-x-auto[^"]*"><table class="[^"]*\bmin-w-\[64rem\]/);
  });
});

describe("SelectAllBox", () => {
  it("is not there before JavaScript runs: the column keeps its name and rows are chosen one by one", () => {
    const html = renderToString(<SelectAllBox name="ids" label="Select all comments on this page" fallback="Select" />);
    expect(html).not.toContain("checkbox");
    expect(html).toBe('<span class="sr-only">Select</span>');
  });

  it("is checked when every row is, mixed when some are, clear when none are", () => {
    expect(selectAllState([])).toEqual({ checked: false, indeterminate: false });
    expect(selectAllState([false, false])).toEqual({ checked: false, indeterminate: false });
    expect(selectAllState([true, false])).toEqual({ checked: false, indeterminate: true });
    expect(selectAllState([true, true])).toEqual({ checked: true, indeterminate: false });
  });
});
