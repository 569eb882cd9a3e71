// The longer half of every demo post: reflective sections that fit any topic
// (code, travel or cooking), with the topic's subject filled in. A real post on
// these blogs runs to about 1,500 words; the topic templates in ./content.ts
// give ~250, and seed.ts adds seven of these eight sections (~180 words each) in
// an order drawn from the post's own PRNG.

interface Bilingual {
  en: string;
  zh: string;
}

export interface LongformSection {
  heading: Bilingual;
  /** Paragraphs; `{subject}` stands for the topic's subject (DEMO_SUBJECTS). */
  paragraphs: Bilingual[];
}

/** What each topic is about, as a phrase that reads inside a sentence. Keyed by DemoTopic.key. */
export const DEMO_SUBJECTS: Record<string, Bilingual> = {
  "images-without-layout-shift": { en: "loading images without layout shift", zh: "避免图片引起的页面跳动" },
  "bilingual-accessibility": { en: "accessibility on a bilingual site", zh: "双语网站的无障碍" },
  "typed-api-responses": { en: "typed API responses", zh: "给接口响应加类型" },
  "testing-node-service": { en: "testing a small Node.js service", zh: "给小型 Node.js 服务写测试" },
  "css-grid-cards": { en: "card layouts with CSS grid", zh: "用 CSS Grid 排列卡片" },
  "dark-mode-variables": { en: "dark mode with CSS variables", zh: "用 CSS 变量做深色模式" },
  "react-router-ssr": { en: "server rendering with React Router", zh: "用 React Router 做服务端渲染" },
  "sqlite-or-postgres": { en: "choosing between SQLite and PostgreSQL", zh: "在 SQLite 和 PostgreSQL 之间做选择" },
  "kyoto-on-foot": { en: "walking through Kyoto", zh: "徒步游京都" },
  "slow-train-yunnan": { en: "the slow train through Yunnan", zh: "坐慢车穿过云南" },
  "hand-pulled-noodles": { en: "making hand-pulled noodles", zh: "在家做手擀面" },
  "sourdough-weekend": { en: "baking sourdough", zh: "烤酸面包" },
};

export const LONGFORM_SECTIONS: LongformSection[] = [
  {
    heading: { en: "How it started", zh: "事情的起因" },
    paragraphs: [
      {
        en: "I did not plan to write about {subject}. It began as a note to myself, a few lines in a text file that I kept open next to everything else. Over a couple of weeks the note grew, then it grew some more, and at some point it was clear that it had turned into something worth sharing with other people who might be stuck in the same place.",
        zh: "我本来没打算写{subject}。一开始只是写给自己的一条笔记，几行字存在一个文本文件里，和其他东西一起开着。几个星期下来，这条笔记越写越长，后来越来越明显：它已经变成了值得分享的内容，也许能帮到同样卡在这里的人。",
      },
      {
        en: "The trigger was small. A friend asked me a simple question, and I realised that my answer was mostly habit. I had done things a certain way for years without asking why. Writing it down forced me to check each step, and a few of those steps turned out to be wrong, or at least much less important than I had always believed.",
        zh: "起因很小。一位朋友问了我一个简单的问题，我才发现自己的回答大多出于习惯。很多年来我都按某种方式做事，却从没问过为什么。把它写下来，逼着我逐一检查每个步骤，结果发现其中有几步是错的，至少远没有我一直以为的那么重要。",
      },
      {
        en: "So this post is partly a record and partly an apology to my past self. If you already know everything here, skim the headings and jump to the table at the end. If you are just starting, read it in order: the later sections assume the earlier ones, and the mistakes make more sense once you have seen the plan they came from.",
        zh: "所以这篇文章一半是记录，一半是向过去的自己道歉。如果你对这些内容已经很熟悉，扫一眼标题，直接跳到最后的表格就好。如果你刚刚开始，建议按顺序读：后面的小节建立在前面的基础上，看过最初的计划，再看那些错误就更容易理解了。",
      },
    ],
  },
  {
    heading: { en: "The first attempt", zh: "第一次尝试" },
    paragraphs: [
      {
        en: "My first attempt at {subject} was, to put it kindly, enthusiastic. I read two articles, skipped the parts that looked boring, and started straight away. Within an hour I had something that looked right from a distance. Up close it was a different story, and it took me most of the next day to understand why the result behaved the way it did.",
        zh: "我第一次尝试{subject}，说得好听一点，是热情高涨。我读了两篇文章，跳过了看起来无聊的部分，马上就动手了。一个小时之内，我就做出了一个远看还不错的东西。可是凑近一看就是另一回事了，我花了第二天的大半时间，才弄明白结果为什么会是那个样子。",
      },
      {
        en: "The boring parts I had skipped were, of course, the important ones. They explained the order in which things happen and what each step depends on. Without that picture in my head I kept changing two things at once, which meant I could never tell which change had helped and which one had quietly made things worse.",
        zh: "我跳过的那些无聊部分，当然恰恰是最重要的。它们讲清楚了事情发生的先后顺序，以及每一步依赖什么。脑子里没有这幅图，我就总是同时改两处，结果永远分不清哪个改动起了作用，哪个又悄悄让情况变得更糟。",
      },
      {
        en: "What finally worked was slowing down. I started again from an empty page, changed one thing at a time and wrote down what I expected before I looked at the result. It felt slow, but it was faster in the end, because I stopped repeating the same experiment with slightly different hopes.",
        zh: "最后真正管用的办法是放慢速度。我从一张白纸重新开始，一次只改一处，并且在看结果之前先写下自己的预期。这样做感觉很慢，但最终反而更快，因为我不再带着略有不同的期望，一遍遍重复同一个实验。",
      },
    ],
  },
  {
    heading: { en: "What went wrong", zh: "哪里出了问题" },
    paragraphs: [
      {
        en: "Most of my problems with {subject} came from assumptions I did not know I was making. I assumed the defaults were sensible for my case. I assumed that what worked once would work again under slightly different conditions. Both assumptions held often enough to feel safe, and failed just often enough to waste whole evenings.",
        zh: "我在{subject}上遇到的大多数问题，都来自一些自己都没意识到的假设。我以为默认设置适合我的情况，也以为成功过一次的做法，在稍有不同的条件下也一样行得通。这两个假设大多数时候都成立，让人觉得很安全，但失灵的次数也刚好足以浪费好几个晚上。",
      },
      {
        en: "The worst moment was a failure that only happened sometimes. Those are the hardest to reason about, because every attempt to look at the problem can change it. In the end I kept a simple log with the time, what I did and what happened. After a dozen entries the pattern was obvious, and the fix took five minutes.",
        zh: "最糟糕的是一个只是偶尔出现的故障。这类问题最难分析，因为每次去观察它，都可能改变它。最后我用最简单的方式记日志：时间、做了什么、发生了什么。记了十几条之后，规律就一目了然，修好它只用了五分钟。",
      },
      {
        en: "None of these mistakes were dramatic. There was no single disaster, only a long series of small surprises. That is probably the most useful lesson here: if something keeps surprising you, stop and write down what you believe is happening. The gap between the note and reality is usually where the problem lives.",
        zh: "这些错误都算不上惊天动地。没有哪一次是灾难，只是一连串小小的意外。这大概是这里最有用的一条经验：如果某件事总让你感到意外，就停下来，写下你认为正在发生的事情。笔记和现实之间的差距，通常就是问题所在。",
      },
    ],
  },
  {
    heading: { en: "Small details that mattered", zh: "那些要紧的小细节" },
    paragraphs: [
      {
        en: "With {subject}, the big decisions turned out to be easy and the small details turned out to matter. The order of two steps, the exact amount of something, a setting that is off unless you turn it on: each looked trivial on its own, and together they made the difference between a result I was happy with and one I had to apologise for.",
        zh: "在{subject}这件事上，大的决定其实很容易，真正要紧的反而是小细节。两个步骤的先后顺序、某样东西的精确用量、一个默认关闭的设置：单看每一项都微不足道，合在一起，却决定了结果是让我满意，还是让我不好意思拿出手。",
      },
      {
        en: "I now keep a short checklist for these details. It is not clever, and it does not need to be. Its only job is to make sure I do not forget the things I have already forgotten once. Every time something goes wrong in a way I have seen before, a line gets added, and the list slowly turns into the most valuable page I own.",
        zh: "现在我为这些细节准备了一张简短的检查清单。它并不高明，也不需要高明。它唯一的作用，就是确保我不会再忘记那些已经忘过一次的事情。每当某件事以熟悉的方式出错，我就往清单上加一行，这张清单也慢慢变成了我手里最有价值的一页纸。",
      },
      {
        en: "The other habit that helped was checking the result the way someone else would see it. On a different screen, at a different time of day, with fresh eyes after a break. Problems that were invisible while I was working on them became obvious the moment I looked at the thing as a visitor rather than as its author.",
        zh: "另一个有帮助的习惯，是用别人的眼光去检查结果：换一块屏幕，换一个时间，休息之后再用新鲜的眼光看。那些埋头做的时候看不见的问题，一旦以访客而不是作者的身份去看，马上就变得显而易见。",
      },
    ],
  },
  {
    heading: { en: "Time and cost", zh: "时间和花费" },
    paragraphs: [
      {
        en: "People often ask how long {subject} takes. The honest answer is that the first time takes far longer than any later time. Most of the hours go into learning what matters and what does not, and that knowledge does not show up in the result. The second time I needed less than half the time, and the third time it was almost routine.",
        zh: "常有人问{subject}要花多长时间。老实说，第一次花的时间远远超过以后的任何一次。大部分时间都用在弄清楚什么重要、什么不重要上，而这些知识并不会体现在结果里。第二次我用了不到一半的时间，到第三次，几乎已经成了例行公事。",
      },
      {
        en: "The money side was modest. I did not buy anything special, and the few things I did buy were ones I would have needed anyway. The real cost was attention: a few evenings when I could not do anything else, and a weekend that disappeared more or less completely. I do not regret it, but it is worth knowing before you start.",
        zh: "花的钱不多。我没有买什么特别的东西，买的那几样本来也迟早要用。真正的代价是注意力：有几个晚上我什么别的事都做不了，还有一个周末几乎完全搭了进去。我并不后悔，但在开始之前知道这一点是值得的。",
      },
      {
        en: "If you are short on time, do the first half properly and leave the rest for later. A careful start with a small scope beats a rushed attempt at everything. The table at the end of this post shows roughly where my hours went, which may help you decide what to skip on your first try.",
        zh: "如果时间紧张，就把前一半认真做好，剩下的以后再说。范围小但开头扎实，胜过匆忙地把所有事情都试一遍。文末的表格大致列出了我的时间都花在了哪里，也许能帮你决定第一次可以先跳过什么。",
      },
    ],
  },
  {
    heading: { en: "Questions readers asked", zh: "读者的提问" },
    paragraphs: [
      {
        en: "After I mentioned {subject} in an earlier post, several readers wrote to me. The most common question was whether it is worth the effort at all. My answer is yes, with a condition: it is worth it if you will do it more than once. For a one-off, a simpler approach that is good enough will save you a lot of trouble.",
        zh: "我在之前的一篇文章里提到{subject}之后，有好几位读者给我写信。最常见的问题是：这到底值不值得花力气。我的回答是值得，但有个前提：你会不止做一次。如果只做一次，一个够用的简单办法能帮你省下很多麻烦。",
      },
      {
        en: "Another reader asked what I would recommend to someone with no experience. Start with the smallest version that can possibly work, and make it work completely before you make it bigger. It is tempting to build the whole thing at once, but a small thing that works teaches you more than a large thing that almost works.",
        zh: "还有一位读者问，我会给完全没有经验的人什么建议。从最小、最有可能成功的版本开始，先让它完整地跑通，再去扩大规模。一次把整件事做完的诱惑很大，但一个能用的小东西，比一个差一点就能用的大东西教给你的要多得多。",
      },
      {
        en: "A few people asked about the tools. I deliberately kept them boring: the ones that come with the system, or the ones most people already have. Unusual tools are fun, but when something goes wrong you want to be able to search for the problem and find that thousands of others have already solved it.",
        zh: "也有几个人问到了工具。我有意选了最普通的：系统自带的，或者大多数人手头已经有的。少见的工具很好玩，但一旦出了问题，你会希望一搜就能发现，成千上万的人早已解决过同样的问题。",
      },
    ],
  },
  {
    heading: { en: "What I would do differently", zh: "如果重来一次" },
    paragraphs: [
      {
        en: "If I started {subject} again tomorrow, I would spend the first hour reading instead of doing. Not tutorials, but the plain reference material that explains how the pieces fit together. It is dry, and it is the single best investment I know of, because it turns guesses into decisions.",
        zh: "如果明天重新开始{subject}，我会把第一个小时花在阅读上，而不是动手。不是读教程，而是读那些朴素的参考资料，它们讲清楚了各个部分如何配合。这些资料很枯燥，却是我所知道的最好的投入，因为它能把猜测变成决定。",
      },
      {
        en: "I would also write things down from the start. Not a polished document, just dated notes: what I tried, what happened, what I think it means. Half of this post was reconstructed from memory, and I am sure some details are slightly wrong. Notes written on the day are cheap to keep and impossible to recreate later.",
        zh: "我还会从一开始就做记录。不需要成型的文档，只要带日期的笔记：试了什么，结果如何，我认为这意味着什么。这篇文章有一半是凭记忆拼起来的，我相信有些细节记得并不准确。当天写下的笔记成本很低，事后却再也无法还原。",
      },
      {
        en: "Finally, I would ask for help sooner. I lost two evenings on a problem that a friend recognised in one sentence. There is a strange pride in working everything out alone, and it is mostly a waste of time. Asking early, with a clear description of what you tried, is a skill worth practising.",
        zh: "最后，我会更早地向别人求助。有个问题我折腾了两个晚上，一位朋友一句话就点破了。一个人把所有事情都搞清楚，这里面有一种奇怪的自豪感，但它多半是在浪费时间。早点开口，并且把自己试过的方法讲清楚，是一项值得练习的本事。",
      },
    ],
  },
  {
    heading: { en: "Notes for next time", zh: "留给下次的笔记" },
    paragraphs: [
      {
        en: "These are the notes I will read before I next try {subject}. Check the basics before the clever parts. Change one thing at a time. Keep the first version small, and finish it. Look at the result as a stranger would. When something surprises you, stop and write down what you expected, because the surprise is information.",
        zh: "下次开始{subject}之前，我会先读这几条笔记。先检查基础，再考虑巧妙的部分。一次只改一处。第一个版本要小，而且要做完。用陌生人的眼光看结果。当某件事让你意外时，停下来写下你原本的预期，因为意外本身就是信息。",
      },
      {
        en: "I will also keep the list of mistakes from this round close at hand. Reading it now, most of them seem obvious, which is exactly why they are easy to repeat. Nobody makes an obvious mistake on purpose; they happen when attention is somewhere else, and a short list is a cheap way to bring it back.",
        zh: "我还会把这一轮犯过的错误清单放在手边。现在重读，大部分错误都显得很明显，而这正是它们容易重犯的原因。没有人会故意犯明显的错误，它们总是发生在注意力跑到别处的时候，一张简短的清单就是把注意力拉回来的廉价办法。",
      },
      {
        en: "If you try this yourself, I would love to hear how it went, especially if you found a better way. Leave a comment below or send me a message. Some of the best improvements in this post came from readers, and I expect the next version will be better for the same reason.",
        zh: "如果你也亲自试一试，我很想知道结果如何，尤其是你找到了更好的办法的话。欢迎在下面留言，或者给我发消息。这篇文章里最好的几处改进都来自读者，我相信下一个版本也会因为同样的原因变得更好。",
      },
    ],
  },
];

/** How many of LONGFORM_SECTIONS a post gets. */
export const LONGFORM_PER_POST = 7;
