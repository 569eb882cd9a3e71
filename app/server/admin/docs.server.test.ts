import { describe, expect, it } from "vitest";
import { ADMIN_DOCS } from "../../lib/admin-docs.ts";
import { readAdminDoc } from "./docs.server.ts";

// The server guide inside the admin: the repository's docs, rendered, their links to each
// other kept inside the admin.
describe("readAdminDoc", () => {
  it("renders every guide the admin offers, titled by its heading", async () => {
    for (const name of ADMIN_DOCS) {
      const doc = await readAdminDoc(name);
      expect(doc, name).not.toBeNull();
      expect(doc?.title, name).not.toBe(name);
      expect(doc?.html, name).toContain("<h1>");
      expect(doc?.html, name).not.toContain("<script");
    }
  });

  it("points links between guides at their admin pages, and leaves no link to a file it does not show", async () => {
    const doc = await readAdminDoc("operations");
    expect(doc?.html).toContain('href="/admin/docs/configuration"');
    // scale-out.md is a developer's doc: its name stays as text, without a dead link.
    expect(doc?.html).not.toMatch(/href="[^"]*\.md/);
  });
});
