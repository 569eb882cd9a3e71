import { isbot } from "isbot";

// Whether a User-Agent is a bot's, for every counter of reads (post views, ad
// impressions and clicks, Insights). isbot tests one large pattern, ~7 µs a call on this
// machine, where a cached post page takes ~100 µs in all; readers send the same few
// strings again and again, so the answers are kept (bounded: the map is emptied when
// full, which only costs the next calls their test again).

const answers = new Map<string, boolean>();
// The last answer: one request asks up to three counters about the same header string.
let lastAgent: string | null = null;
let lastAnswer = true;
export const MAX_BOT_ANSWERS = 2_000;

/** True for a bot's User-Agent or none at all: such requests are never counted. */
export function isBotAgent(userAgent: string | null | undefined): boolean {
  if (userAgent != null && userAgent === lastAgent) return lastAnswer;
  const ua = userAgent?.trim() ?? "";
  if (!ua) return true;
  let bot = answers.get(ua);
  if (bot === undefined) {
    bot = isbot(ua);
    if (answers.size >= MAX_BOT_ANSWERS) answers.clear();
    answers.set(ua, bot);
  }
  if (userAgent != null) {
    lastAgent = userAgent;
    lastAnswer = bot;
  }
  return bot;
}

/** How many answers are kept (tests). */
export function botAnswersKept(): number {
  return answers.size;
}
