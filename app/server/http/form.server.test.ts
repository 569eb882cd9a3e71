import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readForm } from "./form.server.ts";

const post = (contentType: string | null, body: string) =>
  new Request("http://blog.test/contact", {
    method: "POST",
    headers: contentType ? { "content-type": contentType } : {},
    body,
  });

/** The status readForm refused with, or null when it read a form. */
async function refusal(request: Request, emptyIfNotForm = false): Promise<number | null> {
  try {
    await readForm(request, { emptyIfNotForm });
    return null;
  } catch (error) {
    // React Router answers a thrown `data(…)` with its status.
    const init = typeof error === "object" && error !== null && "init" in error ? error.init : null;
    if (typeof init === "object" && init !== null && "status" in init && typeof init.status === "number") {
      return init.status;
    }
    throw error;
  }
}

describe("readForm", () => {
  it("reads urlencoded and multipart forms", async () => {
    expect((await readForm(post("application/x-www-form-urlencoded", "a=1&b=%E4%B8%AD"))).get("b")).toBe("中");
    const form = new FormData();
    form.set("email", "a@example.test");
    const multipart = new Request("http://blog.test/contact", { method: "POST", body: form });
    expect((await readForm(multipart)).get("email")).toBe("a@example.test");
    expect((await readForm(post("Application/X-WWW-Form-Urlencoded; charset=UTF-8", "a=1"))).get("a")).toBe("1");
  });

  it("answers 415 for a body that is not a form and 400 for a form it cannot read", async () => {
    expect(await refusal(post("application/json", '{"a":1}'))).toBe(415);
    expect(await refusal(post("text/plain", "a=1"))).toBe(415);
    expect(await refusal(post(null, "a=1"))).toBe(415);
    expect(await refusal(post("multipart/form-data", "--b\r\n\r\nx\r\n--b--"))).toBe(400);
    expect(await refusal(post("multipart/form-data; boundary=b", "--c\r\nx"))).toBe(400);
    expect(
      await refusal(post("multipart/form-data; boundary=b", '--b\r\nContent-Disposition: form-data; name="a"')),
    ).toBe(400);
  });

  it("reads what is not a form as an empty one when asked to", async () => {
    expect(await refusal(post("application/json", "{}"), true)).toBeNull();
    expect([...(await readForm(post("multipart/form-data; boundary=b", "--c"), { emptyIfNotForm: true }))]).toEqual([]);
  });
});

describe("where forms are read", () => {
  it("is readForm alone: no other server code calls request.formData()", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const offenders: string[] = [];
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(ts|tsx)$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (file === path.join(import.meta.dirname, "form.server.ts")) continue;
      if (/\.formData\(\)/.test(readFileSync(file, "utf8"))) offenders.push(path.relative(root, file));
    }
    expect(offenders).toEqual([]);
  });
});
