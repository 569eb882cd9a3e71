import { describe, expect, it } from "vitest";
import { databaseTestFiles } from "./database-test-files.ts";
import { postgresTestFiles } from "./test.ts";

describe("databaseTestFiles", () => {
  it("lists files that open a database directly, through a repository or through a server", () => {
    const files = databaseTestFiles(["app/server/posts/*.test.ts", "tests/integration/*.test.ts"]);
    // Opens a test database itself.
    expect(files).toContain("app/server/posts/posts.server.test.ts");
    // Starts a server process (tests/setup/server-process.ts).
    expect(files).toContain("tests/integration/server.test.ts");
  });

  it("leaves out files whose imports never reach a database", () => {
    const files = databaseTestFiles(["app/server/feeds/*.test.ts", "app/server/storage/*.test.ts"]);
    expect(files).not.toContain("app/server/feeds/xml.server.test.ts");
    expect(files).not.toContain("app/server/storage/keys.server.test.ts");
    // Builds feeds from values: its module names the database's types, never opens one.
    expect(files).not.toContain("app/server/feeds/feeds.server.test.ts");
    // A file in the same folder that does reach one is listed.
    expect(files).toContain("app/server/feeds/sitemap.server.test.ts");
  });
});

describe("the PostgreSQL pass of npm test", () => {
  it("runs the database files but not those that prove nothing about the dialect", () => {
    const files = postgresTestFiles();
    expect(files).toContain("tests/security/auth-sign-in.test.ts");
    expect(files).toContain("tests/security/auth-admin.test.ts");
    expect(files).toContain("app/server/posts/posts.server.test.ts");
    expect(files).not.toContain("tests/security/attacks.test.ts");
    expect(files).not.toContain("tests/faults/storage.test.ts");
    expect(files).not.toContain("tests/integration/page-weight.test.ts");
    expect(files).not.toContain("app/server/import/upload-check.server.test.ts");
    // Checks that the other dialect's driver is never loaded: it differs by dialect.
    expect(files).toContain("tests/integration/lazy-modules.test.ts");
    expect(files.some((f) => f.startsWith("tests/e2e/"))).toBe(false);
  });
});
