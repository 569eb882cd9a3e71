import { describe, expect, it } from "vitest";
import { validate } from "../forms.ts";
import { missingClasses, profileSchema, registerSchema } from "./auth.ts";

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
    const result = validate(registerSchema(policy), { name: "A", email: "a@example.com", password: "alllowercase" });
    expect(result).toEqual({ ok: false, errors: { password: "auth:errors.passwordNeeds.upper" } });
  });

  it("checks the length before the classes, and needs nothing more without classes", () => {
    expect(validate(registerSchema(policy), { name: "A", email: "a@example.com", password: "Ab1!" })).toEqual({
      ok: false,
      errors: { password: "auth:errors.passwordTooShort" },
    });
    expect(
      validate(registerSchema({ ...policy, requiredClasses: [] }), {
        name: "A",
        email: "a@example.com",
        password: "alllowercase",
      }).ok,
    ).toBe(true);
  });
});

describe("display name at registration", () => {
  const policy = { minLength: 8, maxLength: 128, requiredClasses: [] };
  const register = (name: unknown) =>
    validate(registerSchema(policy), { name, email: "a@example.com", password: "long enough" });

  it("is required, trimmed, at most 50 characters and free of control characters", () => {
    expect(register("  Ada  ")).toMatchObject({ ok: true, data: { name: "Ada" } });
    expect(register("王小明")).toMatchObject({ ok: true, data: { name: "王小明" } });
    expect(register(undefined)).toEqual({ ok: false, errors: { name: "auth:errors.nameRequired" } });
    expect(register("   ")).toEqual({ ok: false, errors: { name: "auth:errors.nameRequired" } });
    expect(register("x".repeat(51))).toEqual({ ok: false, errors: { name: "auth:errors.nameTooLong" } });
    expect(register("a\u0007b")).toEqual({ ok: false, errors: { name: "auth:errors.nameInvalid" } });
  });
});

describe("the account page's profile", () => {
  it("takes a name, an optional bio and an optional avatar from the media library", () => {
    expect(validate(profileSchema, { name: " Ada ", bio: "", avatar: "" })).toEqual({
      ok: true,
      data: { name: "Ada", bio: null, avatar: null },
    });
    expect(validate(profileSchema, { name: "Ada", bio: " Hi ", avatar: "/media/abc123/image.jpg" })).toEqual({
      ok: true,
      data: { name: "Ada", bio: "Hi", avatar: "/media/abc123/image.jpg" },
    });
    expect(validate(profileSchema, { name: "Ada", bio: "x".repeat(301) })).toEqual({
      ok: false,
      errors: { bio: "auth:account.bioTooLong" },
    });
    for (const avatar of ["https://evil.example/a.png", "javascript:alert(1)", "/media/../x", "/uploads/a.png"]) {
      expect(validate(profileSchema, { name: "Ada", avatar }), avatar).toEqual({
        ok: false,
        errors: { avatar: "auth:account.avatarInvalid" },
      });
    }
    expect(validate(profileSchema, { name: "" })).toEqual({ ok: false, errors: { name: "auth:errors.nameRequired" } });
  });
});
