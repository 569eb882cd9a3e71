import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLayers, formatReport } from "./layers.ts";

const root = path.resolve(import.meta.dirname, "..");

// The fixture's import lines are built, not written out, so that the import walkers
// (database-test-files.ts among them) do not read them as imports of this file.
const from = (spec: string) => `from ${JSON.stringify(spec)};\n`;

describe("the layer check", () => {
  let fixture = "";

  function write(file: string, text: string): void {
    const full = path.join(fixture, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }

  beforeAll(() => {
    fixture = mkdtempSync(path.join(tmpdir(), "inkwell-layers-"));
    write("app/server/db.server.ts", "export const db = 1;\n");
    write("app/server/types.server.ts", "export interface Row { id: string }\n");
    write("app/routes/home.tsx", `import { db } ${from("../server/db.server.ts")}export const x = db;\n`);
    // Upwards: a lib module reaching the server, a component reaching a route module.
    write("app/lib/format.ts", `import { db } ${from("../server/db.server.ts")}export const y = db;\n`);
    write("app/components/card.tsx", `import { x } ${from("../routes/home.tsx")}export const z = x;\n`);
    // A client module loading a .server module outside app/server, and one that only names its types.
    write("app/lean/feed.server.ts", "export const feed = 2;\n");
    write("app/lean/reader.ts", `import { feed } ${from("./feed.server.ts")}export const r = feed;\n`);
    write("app/lean/typed.ts", `import type { Row } ${from("../server/types.server.ts")}export type T = Row;\n`);
    // A circle of three, one edge of it a type-only import and one a dynamic import.
    write("app/server/a.server.ts", `import { b } ${from("./b.server.ts")}export const a = b;\n`);
    write("app/server/b.server.ts", `export { c as b } ${from("./c.server.ts")}`);
    write(
      "app/server/c.server.ts",
      `import type { a } ${from("./a.server.ts")}export const c = 3;\nexport const later = () => import(${JSON.stringify("./a.server.ts")});\n`,
    );
    // Tests may reach any layer.
    write("app/lib/format.test.ts", `import { db } ${from("../server/db.server.ts")}void db;\n`);
  });

  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it("reports each forbidden import and each circle", () => {
    const report = checkLayers(fixture);
    expect(report.violations).toEqual(
      expect.arrayContaining([
        { rule: "app/lib must not import app/server", from: "app/lib/format.ts", to: "app/server/db.server.ts" },
        {
          rule: "app/components must not import app/routes",
          from: "app/components/card.tsx",
          to: "app/routes/home.tsx",
        },
        {
          rule: "client-side code must not import server code",
          from: "app/lib/format.ts",
          to: "app/server/db.server.ts",
        },
        {
          rule: "client-side code must not import server code",
          from: "app/lean/reader.ts",
          to: "app/lean/feed.server.ts",
        },
      ]),
    );
    // Route modules may import server code; a type-only import from a client module loads nothing; tests are free.
    const offenders = report.violations.map((v) => v.from);
    expect(offenders).not.toContain("app/routes/home.tsx");
    expect(offenders).not.toContain("app/lean/typed.ts");
    expect(offenders).not.toContain("app/lib/format.test.ts");
    expect(report.violations).toHaveLength(4);
    expect(report.circles).toEqual([
      ["app/server/a.server.ts", "app/server/b.server.ts", "app/server/c.server.ts", "app/server/a.server.ts"],
    ]);
  });

  it("holds each feature of app/server to the Calls line of its README", () => {
    write("app/server/posts/README.md", "# Posts\n\nCalls: db, search\n");
    write(
      "app/server/posts/list.server.ts",
      `import { db } ${from("../db/open.server.ts")}import { r } ${from("../render/md.server.ts")}export const l = [db, r];\n`,
    );
    write("app/server/posts/list.server.test.ts", `import { f } ${from("../feeds/rss.server.ts")}void f;\n`);
    write("app/server/db/README.md", "# Database\n\nCalls: nothing\n");
    write("app/server/db/open.server.ts", "export const db = 1;\n");
    write("app/server/render/md.server.ts", "export const r = 1;\n");
    write("app/server/feeds/README.md", "Calls: nothing\n");
    write("app/server/feeds/rss.server.ts", "export const f = 1;\n");
    const lines = formatReport(checkLayers(fixture)).filter((l) => !l.startsWith("import circle"));
    const features = lines.filter((l) => /Calls|README/.test(l));
    expect(features).toEqual(
      expect.arrayContaining([
        // Render is not on posts' list; the test file's import of feeds is free.
        "app/server/posts calls render, not listed in its README's Calls: app/server/posts/list.server.ts imports app/server/render/md.server.ts",
        // A folder without its README, and a listed feature never called.
        "a feature folder needs a README.md with a Calls: line: app/server/render/README.md",
        "app/server/posts lists search in Calls but never calls it: app/server/posts/README.md",
      ]),
    );
    expect(features).toHaveLength(3);
  });

  it("asks a file over 600 lines to say why at its top", () => {
    const body = "export const x = 1;\n".repeat(601);
    write("app/lib/long.ts", body);
    write("app/lib/data.ts", `// @long-file the demo's posts, data and not code\n${body}`);
    write("app/lib/just.ts", "export const x = 1;\n".repeat(600));
    const long = formatReport(checkLayers(fixture)).filter((l) => l.startsWith("over 600"));
    expect(long).toEqual(["over 600 lines without a @long-file reason at its top: app/lib/long.ts (601 lines)"]);
  });

  it("finds nothing in the project's own tree", () => {
    expect(formatReport(checkLayers(root))).toEqual([]);
  });
});
