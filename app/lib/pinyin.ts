import { pinyin } from "pinyin-pro";
import type { ToPinyin } from "./slug.ts";

/**
 * Toneless pinyin, one syllable per Han character, other text kept as it is
 * ("Go 语言" → "Go yu yan"). pinyin-pro carries a ~320 KB dictionary: the server
 * imports this module; the browser loads it on demand (only the term form does).
 */
export const toPinyin: ToPinyin = (text) =>
  pinyin(text, { toneType: "none", type: "array", nonZh: "consecutive", v: true }).join(" ");
