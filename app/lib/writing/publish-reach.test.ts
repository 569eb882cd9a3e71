import { describe, expect, it } from "vitest";
import { mailedPerVersion, type SubscriberGroup, sharedPerVersion } from "./publish-reach.ts";

const groups: SubscriberGroup[] = [
  { languages: "en", locale: "en", count: 3 },
  { languages: "zh", locale: "zh", count: 2 },
  { languages: "both", locale: "zh", count: 4 },
  { languages: "both", locale: "en", count: 1 },
];

describe("mailedPerVersion", () => {
  it("mails each subscriber the version in their language, both-language ones their site language's", () => {
    expect(mailedPerVersion(groups, ["en", "zh"])).toEqual({ en: 4, zh: 6 });
  });

  it("mails both-language subscribers the only version there is, and nobody else a foreign one", () => {
    expect(mailedPerVersion(groups, ["en"])).toEqual({ en: 8, zh: 0 });
    expect(mailedPerVersion(groups, ["zh"])).toEqual({ en: 0, zh: 7 });
    expect(mailedPerVersion(groups, [])).toEqual({ en: 0, zh: 0 });
  });
});

describe("sharedPerVersion", () => {
  it("shares each version with its account's followers, when federation and the box are on", () => {
    expect(sharedPerVersion({ en: 5, zh: 7 }, ["zh"], true)).toEqual({ en: 0, zh: 7 });
    expect(sharedPerVersion({ en: 5, zh: 7 }, ["en", "zh"], false)).toBeNull();
    expect(sharedPerVersion(null, ["en"], true)).toBeNull();
  });
});
