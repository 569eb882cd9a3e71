import { describe, expect, it } from "vitest";
import { sendInFlight, sendProgress, titleFor } from "./admin-newsletter.ts";

describe("sendProgress", () => {
  it("counts sent, failed and cancelled as done out of the recipients", () => {
    expect(sendProgress(10, { queued: 4, sent: 3, failed: 2, cancelled: 1 })).toEqual({
      done: 6,
      total: 10,
      percent: 60,
    });
    expect(sendProgress(0, { queued: 0, sent: 0, failed: 0, cancelled: 0 })).toEqual({ done: 0, total: 0, percent: 0 });
    // recipients lagging behind the mails never shows more than 100 %.
    expect(sendProgress(2, { queued: 1, sent: 3, failed: 0, cancelled: 0 }).percent).toBe(75);
  });
});

describe("sendInFlight", () => {
  const none = { queued: 0, sent: 1, failed: 0, cancelled: 0 };
  it("is true while recipients are queued or mail waits", () => {
    expect(sendInFlight({ status: "preparing", counts: none })).toBe(true);
    expect(sendInFlight({ status: "sending", counts: { ...none, queued: 1 } })).toBe(true);
    expect(sendInFlight({ status: "sending", counts: none })).toBe(false);
    expect(sendInFlight({ status: "cancelled", counts: none })).toBe(false);
  });
});

describe("titleFor", () => {
  it("prefers the admin's language, then the other", () => {
    expect(titleFor({ en: "Hi", zh: "你好" }, "zh")).toEqual({ title: "你好", locale: "zh" });
    expect(titleFor({ en: "Hi", zh: null }, "zh")).toEqual({ title: "Hi", locale: "en" });
    expect(titleFor({ en: null, zh: null }, "en")).toBeNull();
  });
});
