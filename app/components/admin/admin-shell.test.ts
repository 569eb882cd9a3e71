import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "../../routes.ts";
import { ADMIN_NAV } from "./admin-shell.tsx";

// Every admin page is reached from the sidebar: each page under /admin (a route with a
// component, not a CSV or a report download) lies under one of the sidebar's entries.

function adminPages(): string[] {
  const admin = routes.find((r: RouteConfigEntry) => r.path === "admin");
  if (!admin?.children) throw new Error("no /admin layout route");
  return admin.children.filter((r) => r.file.endsWith(".tsx")).map((r) => (r.index ? "/admin" : `/admin/${r.path}`));
}

describe("the admin sidebar", () => {
  const entries = ADMIN_NAV.flatMap((group) => group.items.map((item) => item.to));

  it("leads to every admin page", () => {
    const pages = adminPages();
    expect(pages.length).toBeGreaterThan(20);
    const unreachable = pages.filter(
      (page) => !entries.some((to) => page === to || (to !== "/admin" && page.startsWith(`${to}/`))),
    );
    expect(unreachable).toEqual([]);
  });

  it("lists each entry once", () => {
    expect(new Set(entries).size).toBe(entries.length);
  });
});
