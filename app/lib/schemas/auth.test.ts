import { describe, expect, it } from "vitest";
import { validate } from "../forms.ts";
import { missingClasses, registerSchema } from "./auth.ts";

describe("password policy", () => {
  const strict = { minLength: 8, maxLength: 128, requiredClasses: ["lower", "upper", "digit", "symbol"] as const };
  const policy = { ...strict, requiredClasses: [...strict.requiredClasses] };

  it.each([
    ["alllowercase", ["upper", "digit", "symbol"]],
    ["ALLUPPER1!", ["lower"]],
    ["Mixed case 1!", []],
    ["Ünïcödé9ß€", []],
    ["密码Abc123$", []],
  ])("%s lacks %o", (password, missing) => expect(missingClasses(password, policy)).toEqual(missing));

  it("reports the first missing class as the field error", () => {
    const result = validate(registerSchema(policy), { email: "a@example.com", password: "alllowercase" });
    expect(result).toEqual({ ok: false, errors: { password: "auth:errors.passwordNeeds.upper" } });
  });

  it("checks the length before the classes, and needs nothing more without classes", () => {
    expect(validate(registerSchema(policy), { email: "a@example.com", password: "Ab1!" })).toEqual({
      ok: false,
      errors: { password: "auth:errors.passwordTooShort" },
    });
    expect(
      validate(registerSchema({ ...policy, requiredClasses: [] }), { email: "a@example.com", password: "alllowercase" })
        .ok,
    ).toBe(true);
  });
});
