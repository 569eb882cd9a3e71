import { describe, expect, it } from "vitest";
import { likePattern } from "./query.server.ts";

// isUniqueViolation is exercised against both dialects' real errors in
// app/server/repos/post-editor.server.test.ts.

describe("likePattern", () => {
  it("takes %, _ and \\ in a search literally, case-folded", () => {
    expect(likePattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
    expect(likePattern("ABC")).toBe("%abc%");
  });
});
