// The demo blog's raw material: categories, tags and post templates in both
// languages. scripts/demo/seed.ts turns them into posts with a seeded PRNG.
// @long-file data, not code: the demo's texts in two languages, read top to bottom like a fixture.

export interface DemoTerm {
  /** The category's slug; for tags only a key (ensureTags makes the slug from the English name). */
  slug: string;
  en: string;
  zh: string;
}

export const DEMO_CATEGORIES: DemoTerm[] = [
  { slug: "frontend", en: "Frontend development", zh: "前端开发" },
  { slug: "javascript", en: "JavaScript", zh: "JavaScript" },
  { slug: "css", en: "CSS tips", zh: "CSS 技巧" },
  { slug: "frameworks", en: "Framework tutorials", zh: "框架教程" },
  { slug: "travel", en: "Travel notes", zh: "旅行笔记" },
  { slug: "cooking", en: "Cooking", zh: "烹饪" },
];

export const DEMO_TAGS: DemoTerm[] = [
  { slug: "typescript", en: "TypeScript", zh: "TypeScript" },
  { slug: "react", en: "React", zh: "React" },
  { slug: "nodejs", en: "Node.js", zh: "Node.js" },
  { slug: "testing", en: "Testing", zh: "测试" },
  { slug: "performance", en: "Performance", zh: "性能" },
  { slug: "accessibility", en: "Accessibility", zh: "无障碍" },
  { slug: "i18n", en: "Internationalization", zh: "国际化" },
  { slug: "css-grid", en: "CSS Grid", zh: "网格布局" },
  { slug: "dark-mode", en: "Dark mode", zh: "深色模式" },
  { slug: "sqlite", en: "SQLite", zh: "SQLite" },
  { slug: "postgresql", en: "PostgreSQL", zh: "PostgreSQL" },
  { slug: "tooling", en: "Tooling", zh: "工具链" },
  { slug: "shell", en: "Shell", zh: "命令行" },
  { slug: "japan", en: "Japan", zh: "日本" },
  { slug: "yunnan", en: "Yunnan", zh: "云南" },
  { slug: "hiking", en: "Hiking", zh: "徒步" },
  { slug: "trains", en: "Trains", zh: "火车" },
  { slug: "noodles", en: "Noodles", zh: "面食" },
  { slug: "baking", en: "Baking", zh: "烘焙" },
  { slug: "weekend", en: "Weekend projects", zh: "周末项目" },
];

interface Bilingual {
  en: string;
  zh: string;
}

export interface DemoSection {
  heading: Bilingual;
  paragraphs: Bilingual[];
  /** A third-level heading with a list under it. */
  list?: { heading: Bilingual; items: Bilingual[] };
}

export interface DemoTopic {
  key: string;
  category: string;
  tags: string[];
  title: Bilingual;
  summary: Bilingual;
  intro: Bilingual;
  sections: DemoSection[];
  quote: Bilingual;
  links: Array<{ label: Bilingual; url: string }>;
}

/** Code blocks (ts, bash, json), shared by the posts and picked by the PRNG. */
export const DEMO_SNIPPETS: Array<{ lang: "ts" | "bash" | "json"; caption: Bilingual; code: string }> = [
  {
    lang: "ts",
    caption: { en: "A small, typed fetch helper:", zh: "一个带类型的小工具函数：" },
    code: `interface Post {
  id: string;
  title: string;
  publishedAt: string | null;
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(\`\${url} answered \${res.status}\`);
  return (await res.json()) as T;
}

const posts = await getJson<Post[]>("/api/posts");
console.log(posts.map((p) => p.title));`,
  },
  {
    lang: "ts",
    caption: { en: "The test that caught the bug:", zh: "发现这个问题的那条测试：" },
    code: `import { describe, expect, it } from "vitest";
import { slugify } from "./slugify.ts";

describe("slugify", () => {
  it("keeps ASCII letters and digits", () => {
    expect(slugify("Hello, World 2026!")).toBe("hello-world-2026");
  });

  it("gives an empty string for text without ASCII", () => {
    expect(slugify("你好")).toBe("");
  });
});`,
  },
  {
    lang: "ts",
    caption: { en: "Debouncing a handler without a library:", zh: "不用第三方库实现防抖：" },
    code: `export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

window.addEventListener("resize", debounce(() => console.log(innerWidth), 200));`,
  },
  {
    lang: "bash",
    caption: { en: "Setting it up from scratch:", zh: "从零开始搭建：" },
    code: `mkdir demo && cd demo
npm init -y
npm install --save-exact typescript vitest
npx tsc --init --strict
npx vitest run`,
  },
  {
    lang: "bash",
    caption: { en: "Checking what takes the time:", zh: "看看时间都花在了哪里：" },
    code: `# ten seconds of load against the local server
npx autocannon -d 10 -c 20 http://localhost:3000/
# and the slowest queries in the log
grep '"ms":' data/server.log | sort -t: -k2 -n | tail -5`,
  },
  {
    lang: "json",
    caption: { en: "The configuration I ended up with:", zh: "最后用的配置：" },
    code: `{
  "compilerOptions": {
    "target": "ES2024",
    "module": "ESNext",
    "strict": true,
    "noUncheckedIndexedAccess": true
  },
  "include": ["src/**/*.ts"]
}`,
  },
  {
    lang: "json",
    caption: { en: "My packing list, kept as JSON:", zh: "我的行李清单，用 JSON 记录：" },
    code: `{
  "bag": "28 L backpack",
  "clothes": ["rain jacket", "fleece", "2 shirts"],
  "gear": ["headlamp", "water filter", "power bank"],
  "documents": ["passport", "rail pass"]
}`,
  },
];

/** Small tables, shared like the snippets. */
export const DEMO_TABLES: Array<{ caption: Bilingual; head: [Bilingual, Bilingual, Bilingual]; rows: Bilingual[][] }> =
  [
    {
      caption: { en: "Before and after:", zh: "改动前后对比：" },
      head: [
        { en: "Measure", zh: "指标" },
        { en: "Before", zh: "改动前" },
        { en: "After", zh: "改动后" },
      ],
      rows: [
        [
          { en: "First paint", zh: "首次绘制" },
          { en: "1.8 s", zh: "1.8 秒" },
          { en: "0.9 s", zh: "0.9 秒" },
        ],
        [
          { en: "Bundle size", zh: "打包体积" },
          { en: "212 KB", zh: "212 KB" },
          { en: "148 KB", zh: "148 KB" },
        ],
        [
          { en: "Layout shift", zh: "布局偏移" },
          { en: "0.21", zh: "0.21" },
          { en: "0.01", zh: "0.01" },
        ],
      ],
    },
    {
      caption: { en: "The plan, day by day:", zh: "每天的安排：" },
      head: [
        { en: "Day", zh: "日期" },
        { en: "Route", zh: "路线" },
        { en: "Distance", zh: "距离" },
      ],
      rows: [
        [
          { en: "1", zh: "第一天" },
          { en: "Old town loop", zh: "古城环线" },
          { en: "9 km", zh: "9 公里" },
        ],
        [
          { en: "2", zh: "第二天" },
          { en: "River path", zh: "沿河步道" },
          { en: "14 km", zh: "14 公里" },
        ],
        [
          { en: "3", zh: "第三天" },
          { en: "Hill temples", zh: "山间寺庙" },
          { en: "11 km", zh: "11 公里" },
        ],
      ],
    },
    {
      caption: { en: "What goes in, for two people:", zh: "两人份的用料：" },
      head: [
        { en: "Ingredient", zh: "材料" },
        { en: "Amount", zh: "用量" },
        { en: "Note", zh: "备注" },
      ],
      rows: [
        [
          { en: "Flour", zh: "面粉" },
          { en: "300 g", zh: "300 克" },
          { en: "bread flour", zh: "高筋面粉" },
        ],
        [
          { en: "Water", zh: "水" },
          { en: "160 ml", zh: "160 毫升" },
          { en: "lukewarm", zh: "温水" },
        ],
        [
          { en: "Salt", zh: "盐" },
          { en: "4 g", zh: "4 克" },
          { en: "fine", zh: "细盐" },
        ],
      ],
    },
  ];

export const DEMO_TOPICS: DemoTopic[] = [
  {
    key: "images-without-layout-shift",
    category: "frontend",
    tags: ["performance", "accessibility", "css-grid"],
    title: { en: "Loading images without layout shift", zh: "加载图片时避免页面跳动" },
    summary: {
      en: "Width, height and aspect-ratio: three attributes that keep a page still while its pictures arrive.",
      zh: "宽、高和宽高比，三个属性就能让页面在图片加载时保持稳定。",
    },
    intro: {
      en: "Nothing makes a page feel cheaper than text that jumps away just as you start reading it. Most of the time the culprit is an image that arrives late and pushes everything down.",
      zh: "刚开始读一段文字，它却突然往下跳走了，这种体验非常糟糕。大多数时候，罪魁祸首是一张晚到的图片，它把下面的内容全都挤了下去。",
    },
    sections: [
      {
        heading: { en: "Reserve the space first", zh: "先把位置留出来" },
        paragraphs: [
          {
            en: "The browser can only reserve space for an image when it knows the shape in advance. Give every image its intrinsic width and height, and let CSS scale it down.",
            zh: "只有提前知道图片的形状，浏览器才能给它预留空间。给每张图片写上原始的宽和高，再交给 CSS 去缩放。",
          },
        ],
        list: {
          heading: { en: "A checklist", zh: "检查清单" },
          items: [
            { en: "set `width` and `height` on every `img`", zh: "每个 `img` 都写上 `width` 和 `height`" },
            { en: "use `aspect-ratio` for boxes without an image yet", zh: "还没有图片的容器用 `aspect-ratio`" },
            { en: 'add `loading="lazy"` below the fold', zh: '首屏以下的图片加上 `loading="lazy"`' },
          ],
        },
      },
      {
        heading: { en: "Measure it", zh: "用数据说话" },
        paragraphs: [
          {
            en: "Cumulative layout shift is easy to see in the performance panel. I keep a short note of the numbers before and after each change.",
            zh: "在性能面板里很容易看到累计布局偏移。每次改动前后，我都会把数字简单记下来。",
          },
        ],
      },
    ],
    quote: {
      en: "A page that stays still is a page that can be read.",
      zh: "页面稳定，读者才能安心阅读。",
    },
    links: [
      {
        label: { en: "MDN: aspect-ratio", zh: "MDN：aspect-ratio" },
        url: "https://developer.mozilla.org/docs/Web/CSS/aspect-ratio",
      },
    ],
  },
  {
    key: "bilingual-accessibility",
    category: "frontend",
    tags: ["accessibility", "i18n"],
    title: { en: "Making a bilingual site accessible", zh: "让双语网站更易访问" },
    summary: {
      en: "The lang attribute, readable fonts for Chinese and English, and links that say where they go.",
      zh: "lang 属性、适合中英文的字体，以及说清楚去向的链接。",
    },
    intro: {
      en: "A site in two languages has two audiences, and screen readers need to know which one they are talking to. Most of the work is small and easy to forget.",
      zh: "一个双语网站面对的是两群读者，读屏软件需要知道当前读的是哪种语言。大部分工作都很小，却很容易被忘记。",
    },
    sections: [
      {
        heading: { en: "Say which language it is", zh: "标明当前语言" },
        paragraphs: [
          {
            en: "Set `lang` on the `html` element, and again on any block that is in the other language. A screen reader switches its voice when it meets the attribute.",
            zh: "在 `html` 元素上设置 `lang`，另一种语言的段落也要单独标注。读屏软件遇到这个属性时会切换发音。",
          },
        ],
        list: {
          heading: { en: "Things I check", zh: "我会检查的几点" },
          items: [
            { en: "headings in order, one `h1` per page", zh: "标题层级有序，每页只有一个 `h1`" },
            { en: "every form field has a label", zh: "每个表单字段都有标签" },
            { en: "focus is visible everywhere", zh: "所有地方的焦点都清晰可见" },
          ],
        },
      },
      {
        heading: { en: "Fonts for both scripts", zh: "兼顾两种文字的字体" },
        paragraphs: [
          {
            en: "Chinese text needs a little more line height than English. I use a system font stack and let each script fall back to a face designed for it.",
            zh: "中文的行高需要比英文略大一些。我使用系统字体栈，让每种文字回退到为它设计的字体。",
          },
        ],
      },
    ],
    quote: { en: "Accessibility is mostly care, applied often.", zh: "无障碍说到底，是持续不断的细心。" },
    links: [
      {
        label: { en: "WAI: Language of parts", zh: "WAI：部分内容的语言" },
        url: "https://www.w3.org/WAI/WCAG22/Understanding/language-of-parts",
      },
    ],
  },
  {
    key: "typed-api-responses",
    category: "javascript",
    tags: ["typescript", "tooling"],
    title: { en: "Typing API responses with TypeScript", zh: "用 TypeScript 为接口响应加上类型" },
    summary: {
      en: "A type on fetch's result is a promise, not a check. Here is how I validate at the edge and trust the rest.",
      zh: "给 fetch 的结果标注类型只是一个承诺，并不是校验。这篇讲我如何在边界处校验，之后放心使用。",
    },
    intro: {
      en: "It is tempting to write `as Post[]` and move on. It works until the server changes a field, and then the error shows up three files away from its cause.",
      zh: "写一句 `as Post[]` 然后继续往下写，这很诱人。直到服务器改了某个字段，报错却出现在离原因隔着三个文件的地方。",
    },
    sections: [
      {
        heading: { en: "Validate once, at the boundary", zh: "只在边界校验一次" },
        paragraphs: [
          {
            en: "I parse every response with a schema in the one function that talks to the network. Everything after it can rely on the types.",
            zh: "我在唯一负责网络请求的函数里，用模式校验每一个响应。之后的代码就可以放心依赖类型了。",
          },
        ],
        list: {
          heading: { en: "Rules of thumb", zh: "经验法则" },
          items: [
            { en: "no `any`, not even in tests", zh: "不用 `any`，测试里也不用" },
            { en: "turn on `noUncheckedIndexedAccess`", zh: "打开 `noUncheckedIndexedAccess`" },
            { en: "prefer unions over optional flags", zh: "优先使用联合类型，而不是可选标志" },
          ],
        },
      },
      {
        heading: { en: "Errors people can read", zh: "让人看得懂的错误" },
        paragraphs: [
          {
            en: "When validation fails, the message should name the field and the value. That turns a late-night mystery into a one-line fix.",
            zh: "校验失败时，错误信息应该写清楚是哪个字段、什么值。这样，深夜里的疑难杂症就变成了一行代码的修复。",
          },
        ],
      },
    ],
    quote: {
      en: "Types describe what you hope; checks describe what you got.",
      zh: "类型描述你的期望，校验描述你真正拿到的东西。",
    },
    links: [
      {
        label: { en: "TypeScript handbook", zh: "TypeScript 手册" },
        url: "https://www.typescriptlang.org/docs/handbook/intro.html",
      },
    ],
  },
  {
    key: "testing-node-service",
    category: "javascript",
    tags: ["testing", "nodejs", "sqlite"],
    title: { en: "Testing a small Node.js service", zh: "给一个小型 Node.js 服务写测试" },
    summary: {
      en: "A real database per test file, no mocks for the parts that matter, and tests that run in seconds.",
      zh: "每个测试文件一个真实数据库，关键部分不用模拟，整套测试几秒钟跑完。",
    },
    intro: {
      en: "For a long time my tests mocked the database, and for a long time they passed while production broke. These days every test file gets a fresh database of its own.",
      zh: "很长一段时间里，我的测试都在模拟数据库，测试一直通过，线上却频频出错。现在，每个测试文件都有一个属于自己的全新数据库，测试结果终于可信了。",
    },
    sections: [
      {
        heading: { en: "A fresh database per file", zh: "每个文件一个新数据库" },
        paragraphs: [
          {
            en: "An in-memory SQLite database is created in milliseconds. The same tests run against PostgreSQL in CI, so both dialects stay honest.",
            zh: "内存中的 SQLite 数据库只需几毫秒就能创建好。持续集成里，同样的测试还会在 PostgreSQL 上再跑一遍，两种数据库都不会出问题。",
          },
          {
            en: "The trick is to make the test setup the same code path as production: run the real migrations, not a hand-written schema.",
            zh: "关键在于让测试准备和生产环境走同一条路径：执行真正的迁移脚本，而不是手写一份表结构。这样的测试才有意义。",
          },
        ],
        list: {
          heading: { en: "What I test first", zh: "我最先写的测试" },
          items: [
            { en: "the boundaries: page 0, page past the end", zh: "边界情况：第 0 页、超出末尾的页" },
            { en: "permissions in the `WHERE` clause", zh: "写在 `WHERE` 子句里的权限判断" },
            { en: "what happens when two requests race", zh: "两个请求同时到达时会发生什么" },
          ],
        },
      },
      {
        heading: { en: "Make the test fail first", zh: "先让测试失败" },
        paragraphs: [
          {
            en: "A test that has never failed has never been tested itself. I break the code on purpose once, watch the test go red, and only then trust it.",
            zh: "一条从没失败过的测试，本身就没有被测试过。我会故意改坏一次代码，看着测试变红，然后才信任它。",
          },
        ],
      },
    ],
    quote: {
      en: "Mock what you do not own; run what you do.",
      zh: "不属于你的东西可以模拟，属于你的东西就真刀真枪地跑。",
    },
    links: [
      { label: { en: "Node.js test runner", zh: "Node.js 测试运行器" }, url: "https://nodejs.org/api/test.html" },
    ],
  },
  {
    key: "css-grid-cards",
    category: "css",
    tags: ["css-grid", "performance"],
    title: { en: "CSS grid for card layouts", zh: "用 CSS Grid 排列卡片" },
    summary: {
      en: "One line of grid-template-columns replaces a page of media queries.",
      zh: "一行 grid-template-columns，就能替代一整页媒体查询。",
    },
    intro: {
      en: "Card grids used to mean floats, then flexbox with negative margins, then a media query for every breakpoint. Grid made all of that unnecessary.",
      zh: "以前做卡片网格，要用浮动，后来是带负外边距的弹性布局，再后来每个断点都要写一条媒体查询。有了网格布局，这些都不需要了。",
    },
    sections: [
      {
        heading: { en: "auto-fill and minmax", zh: "auto-fill 与 minmax" },
        paragraphs: [
          {
            en: "`repeat(auto-fill, minmax(16rem, 1fr))` fits as many columns as the container allows, each at least 16rem wide.",
            zh: "`repeat(auto-fill, minmax(16rem, 1fr))` 会在容器允许的范围内放下尽可能多的列，每列至少 16rem 宽。",
          },
        ],
        list: {
          heading: { en: "Details that matter", zh: "值得注意的细节" },
          items: [
            { en: "use `gap`, not margins", zh: "用 `gap`，不要用外边距" },
            { en: "align card footers with `grid-template-rows: subgrid`", zh: "用 `subgrid` 对齐卡片底部" },
            { en: "keep the DOM order the reading order", zh: "保持 DOM 顺序与阅读顺序一致" },
          ],
        },
      },
    ],
    quote: { en: "Let the layout do the arithmetic.", zh: "让布局自己去做算术。" },
    links: [
      {
        label: { en: "MDN: CSS grid layout", zh: "MDN：CSS 网格布局" },
        url: "https://developer.mozilla.org/docs/Web/CSS/CSS_grid_layout",
      },
    ],
  },
  {
    key: "dark-mode-variables",
    category: "css",
    tags: ["dark-mode", "accessibility"],
    title: { en: "Dark mode with CSS variables", zh: "用 CSS 变量实现深色模式" },
    summary: {
      en: "Follow the system by default, remember the reader's choice, and never flash the wrong theme.",
      zh: "默认跟随系统，记住读者的选择，并且永远不要闪现错误的主题。",
    },
    intro: {
      en: "Dark mode looks like a colour swap, but the hard part is the first frame: the page must know the theme before it paints.",
      zh: "深色模式看上去只是换一套颜色，真正难的是第一帧：页面必须在绘制之前就知道该用哪个主题。",
    },
    sections: [
      {
        heading: { en: "Colours as variables", zh: "把颜色写成变量" },
        paragraphs: [
          {
            en: "I define a handful of semantic colours, such as background, text and accent, and switch their values under a `dark` class.",
            zh: "我只定义少量有语义的颜色，比如背景、正文和强调色，然后在 `dark` 类下切换它们的值。",
          },
        ],
        list: {
          heading: { en: "Steps", zh: "步骤" },
          items: [
            { en: "read `prefers-color-scheme`", zh: "读取 `prefers-color-scheme`" },
            { en: "store an explicit choice in `localStorage`", zh: "把用户的明确选择存进 `localStorage`" },
            { en: "set the class in a tiny inline script", zh: "用一小段内联脚本设置类名" },
          ],
        },
      },
      {
        heading: { en: "Check the contrast", zh: "检查对比度" },
        paragraphs: [
          {
            en: "Grey on dark grey is easy to get wrong. Every pair of colours gets checked against the contrast guidelines in both themes.",
            zh: "深灰底上的灰字很容易出问题。每一对颜色，我都会在两种主题下对照对比度标准检查一遍。",
          },
        ],
      },
    ],
    quote: { en: "The best theme switch is the one nobody notices.", zh: "最好的主题切换，是没人注意到的切换。" },
    links: [
      {
        label: { en: "MDN: prefers-color-scheme", zh: "MDN：prefers-color-scheme" },
        url: "https://developer.mozilla.org/docs/Web/CSS/@media/prefers-color-scheme",
      },
    ],
  },
  {
    key: "react-router-ssr",
    category: "frameworks",
    tags: ["react", "typescript", "performance"],
    title: { en: "Server rendering with React Router", zh: "用 React Router 做服务端渲染" },
    summary: {
      en: "Loaders on the server, HTML on the first request, and a page that works before JavaScript arrives.",
      zh: "在服务器上运行数据加载函数，首个请求直接返回 HTML，页面在脚本加载之前就能用。",
    },
    intro: {
      en: "A blog should be readable with JavaScript turned off. Server rendering gives that for free, and the client takes over once it has loaded.",
      zh: "一个博客在关掉脚本的情况下也应该能读。服务端渲染天然做到了这一点，脚本加载完成后再由客户端接手。",
    },
    sections: [
      {
        heading: { en: "Loaders and actions", zh: "数据加载与提交" },
        paragraphs: [
          {
            en: "Each route declares what it needs in a loader. The server runs it, renders the HTML, and sends the data along for hydration.",
            zh: "每个路由在加载函数里声明自己需要的数据。服务器执行它、渲染 HTML，并把数据一起发送给浏览器用于激活。",
          },
        ],
        list: {
          heading: { en: "What I keep on the server", zh: "留在服务器上的东西" },
          items: [
            { en: "database access and secrets", zh: "数据库访问和密钥" },
            { en: "Markdown rendering, done once on save", zh: "Markdown 渲染，保存时只做一次" },
            { en: "permission checks in every loader", zh: "每个加载函数里的权限检查" },
          ],
        },
      },
      {
        heading: { en: "Resource routes", zh: "资源路由" },
        paragraphs: [
          {
            en: "Feeds and the sitemap are routes too: a loader that returns a `Response` with the right content type.",
            zh: "订阅源和站点地图也是路由：一个返回 `Response` 并带上正确内容类型的加载函数。",
          },
        ],
      },
    ],
    quote: { en: "Send HTML first; send JavaScript when it helps.", zh: "先发送 HTML，脚本只在有用的时候才发。" },
    links: [{ label: { en: "React Router docs", zh: "React Router 文档" }, url: "https://reactrouter.com/" }],
  },
  {
    key: "sqlite-or-postgres",
    category: "frameworks",
    tags: ["sqlite", "postgresql", "tooling"],
    title: { en: "Choosing between SQLite and PostgreSQL", zh: "在 SQLite 和 PostgreSQL 之间做选择" },
    summary: {
      en: "Start with one file, keep the queries portable, and move when the traffic asks for it.",
      zh: "从一个文件开始，保持查询可移植，等流量真的需要时再迁移。",
    },
    intro: {
      en: "A personal blog rarely needs a database server. SQLite in WAL mode serves thousands of reads a second from a single file.",
      zh: "个人博客很少需要一台数据库服务器。开启 WAL 模式的 SQLite，单个文件每秒就能处理数千次读取。",
    },
    sections: [
      {
        heading: { en: "Keep both doors open", zh: "给两边都留好门" },
        paragraphs: [
          {
            en: "Timestamps as ISO text, booleans as 0 and 1, ids generated by the application: with these rules the same schema works on both.",
            zh: "时间戳存成 ISO 文本，布尔值存成 0 和 1，主键由应用生成：遵守这几条规则，同一套表结构就能在两边通用。",
          },
        ],
        list: {
          heading: { en: "Where they differ", zh: "两者的区别" },
          items: [
            { en: "full-text search: FTS5 versus `tsvector`", zh: "全文搜索：FTS5 与 `tsvector`" },
            { en: "concurrent writers", zh: "并发写入" },
            { en: "how you back up", zh: "备份方式" },
          ],
        },
      },
    ],
    quote: { en: "The best database is the one you can restore.", zh: "最好的数据库，是你能恢复的那一个。" },
    links: [
      {
        label: { en: "SQLite: appropriate uses", zh: "SQLite：适用场景" },
        url: "https://www.sqlite.org/whentouse.html",
      },
      { label: { en: "PostgreSQL documentation", zh: "PostgreSQL 文档" }, url: "https://www.postgresql.org/docs/" },
    ],
  },
  {
    key: "kyoto-on-foot",
    category: "travel",
    tags: ["japan", "hiking", "weekend"],
    title: { en: "Three days in Kyoto on foot", zh: "徒步京都三日" },
    summary: {
      en: "Temples at dawn, a river path at noon and noodles at night, with no bus in between.",
      zh: "清晨看寺庙，中午走河边步道，晚上吃一碗面，中间一趟公交都不坐。",
    },
    intro: {
      en: "I went to Kyoto with a rule: walk everywhere. It turned out to be the best way to see a city that hides its best corners down small lanes.",
      zh: "去京都之前，我给自己定了一条规矩：哪儿都走路去。结果发现，这正是游览这座城市的最好方式，因为它最美的角落都藏在小巷深处。",
    },
    sections: [
      {
        heading: { en: "Start early", zh: "早点出发" },
        paragraphs: [
          {
            en: "The famous temples are quiet until eight. After that the crowds arrive, and it is time to head for the smaller shrines on the hills.",
            zh: "有名的寺庙在八点之前都很安静。之后人潮涌来，就该去山上那些小神社了。",
          },
          {
            en: "Breakfast was rice, grilled fish and miso soup at a counter near the station, eaten standing up with the commuters.",
            zh: "早饭是车站附近一家小店的米饭、烤鱼和味噌汤，跟赶早班的上班族一起站着吃完。",
          },
        ],
        list: {
          heading: { en: "What I would bring again", zh: "下次还会带的东西" },
          items: [
            { en: "comfortable shoes, already worn in", zh: "一双穿惯了的舒服鞋子" },
            { en: "a small towel for the heat", zh: "一条擦汗的小毛巾" },
            { en: "coins for the temple gates", zh: "寺庙门口用的零钱" },
          ],
        },
      },
      {
        heading: { en: "Along the river", zh: "沿着河走" },
        paragraphs: [
          {
            en: "The river path runs the length of the city. In the evening people sit on the banks at perfectly even distances, which is a sight in itself.",
            zh: "河边步道贯穿整座城市。傍晚时分，人们间隔均匀地坐在河岸上，这本身就是一道风景。",
          },
        ],
      },
    ],
    quote: { en: "Walking is the speed at which a city makes sense.", zh: "步行，是读懂一座城市的速度。" },
    links: [{ label: { en: "Japan rail passes", zh: "日本铁路通票" }, url: "https://www.japanrailpass.net/" }],
  },
  {
    key: "slow-train-yunnan",
    category: "travel",
    tags: ["yunnan", "trains", "hiking"],
    title: { en: "A slow train through Yunnan", zh: "坐慢车穿过云南" },
    summary: {
      en: "Twelve hours from Kunming to Dali, tea in a paper cup, and a window seat full of mountains.",
      zh: "从昆明到大理的十二个小时，纸杯里的一杯茶，还有满窗的群山。",
    },
    intro: {
      en: "There is a fast train now, but I took the old one on purpose. It stops at every town, and every stop is a small scene.",
      zh: "现在已经有高铁了，但我还是特意坐了那趟老慢车。它每个小镇都停，每一站都是一幕小小的场景。",
    },
    sections: [
      {
        heading: { en: "On board", zh: "车厢里" },
        paragraphs: [
          {
            en: "The attendant came by with a kettle every hour. My neighbours shared sunflower seeds and told me which town had the best rice noodles.",
            zh: "列车员每隔一小时提着水壶过来添水。邻座的大叔大妈分给我瓜子，还告诉我哪个镇上的米线最好吃。",
          },
        ],
        list: {
          heading: { en: "Tips for the slow train", zh: "坐慢车的小建议" },
          items: [
            { en: "book a window seat on the left side", zh: "订左侧靠窗的座位" },
            { en: "bring your own cup for tea", zh: "自带一个喝茶的杯子" },
            { en: "download maps before the mountains", zh: "进山之前先下载好离线地图" },
          ],
        },
      },
      {
        heading: { en: "Dali at last", zh: "终于到了大理" },
        paragraphs: [
          {
            en: "We arrived after dark. The old town smelled of grilled cheese and wood smoke, and the mountains were a black line against the stars.",
            zh: "天黑以后才到。古城里飘着烤乳扇和柴火的味道，远处的苍山在星空下只剩一道黑色的轮廓。",
          },
        ],
      },
    ],
    quote: { en: "The slow train does not waste time; it spends it.", zh: "慢车并不浪费时间，它只是慢慢地花掉时间。" },
    links: [{ label: { en: "Travel notes index", zh: "旅行笔记目录" }, url: "/about" }],
  },
  {
    key: "hand-pulled-noodles",
    category: "cooking",
    tags: ["noodles", "weekend"],
    title: { en: "Hand-pulled noodles at home", zh: "在家做手擀面" },
    summary: {
      en: "Flour, water, salt and patience: the dough does most of the work if you let it rest.",
      zh: "面粉、水、盐，再加一点耐心：只要让面团好好醒一醒，它自己就能完成大部分工作。",
    },
    intro: {
      en: "My grandmother made noodles every Sunday without a recipe. This is my attempt to write down what she did with her hands.",
      zh: "奶奶每个星期天都做面条，从来不看菜谱。这篇是我试着把她手上的功夫用文字记下来。",
    },
    sections: [
      {
        heading: { en: "The dough", zh: "和面" },
        paragraphs: [
          {
            en: "Mix the flour and salt, add the water slowly, and knead until the dough is smooth. Then cover it and walk away for half an hour.",
            zh: "面粉和盐先拌匀，慢慢加水，揉到面团表面光滑。然后盖上保鲜膜，放着别管，醒半个小时。",
          },
        ],
        list: {
          heading: { en: "Common mistakes", zh: "常见的错误" },
          items: [
            { en: "too much water at once", zh: "一次加太多水" },
            { en: "skipping the rest", zh: "省掉醒面这一步" },
            { en: "rolling on a dry board without flour", zh: "案板上不撒干粉就开始擀" },
          ],
        },
      },
      {
        heading: { en: "Rolling and cutting", zh: "擀面和切面" },
        paragraphs: [
          {
            en: "Roll from the centre outwards, turning the sheet a quarter each time. Fold it loosely and cut with one firm stroke.",
            zh: "从中间往外擀，每擀几下就把面片转四分之一圈。松松地折起来，一刀切下去，干脆利落。",
          },
        ],
      },
    ],
    quote: { en: "Good noodles are mostly waiting.", zh: "好面条，大半功夫都在等待。" },
    links: [{ label: { en: "More recipes", zh: "更多菜谱" }, url: "/about" }],
  },
  {
    key: "sourdough-weekend",
    category: "cooking",
    tags: ["baking", "weekend"],
    title: { en: "A weekend of baking sourdough", zh: "一个周末的酸面包烘焙" },
    summary: {
      en: "Friday starter, Saturday dough, Sunday bread: a timetable that fits around a normal life.",
      zh: "周五喂酵种，周六和面，周日出炉：一份能配合日常生活的时间表。",
    },
    intro: {
      en: "Sourdough has a reputation for being fussy. In practice it only needs a timetable and a warm corner of the kitchen.",
      zh: "酸面包向来以麻烦出名。实际上，它只需要一张时间表和厨房里一个暖和的角落。",
    },
    sections: [
      {
        heading: { en: "The timetable", zh: "时间安排" },
        paragraphs: [
          {
            en: "Feed the starter on Friday evening. Mix the dough on Saturday morning, fold it four times before lunch, and shape it in the afternoon.",
            zh: "周五晚上喂一次酵种。周六早上和面，午饭前折叠四次，下午整形。",
          },
        ],
        list: {
          heading: { en: "What you need", zh: "需要准备的东西" },
          items: [
            { en: "an active starter", zh: "一份活跃的酵种" },
            { en: "a heavy pot with a lid", zh: "一只带盖的厚底锅" },
            { en: "a kitchen scale", zh: "一台厨房秤" },
          ],
        },
      },
      {
        heading: { en: "Baking day", zh: "烘焙日" },
        paragraphs: [
          {
            en: "Bake in the covered pot for twenty minutes, then uncover it and let the crust go dark. Wait an hour before cutting, however hard it is.",
            zh: "先盖着锅盖烤二十分钟，再揭开盖子，让外皮烤成深色。出炉后等一个小时再切，再馋也要忍住。",
          },
        ],
      },
    ],
    quote: { en: "Bread keeps its own time; the baker only keeps up.", zh: "面包有自己的节奏，面包师只是跟上它。" },
    links: [{ label: { en: "Baking notes", zh: "烘焙笔记" }, url: "/about" }],
  },
];

/** Short comments the demo author leaves under a few posts. */
export const DEMO_COMMENTS: Bilingual[] = [
  { en: "Thanks, this saved me an evening of debugging.", zh: "谢谢，这篇帮我省了一晚上的调试时间。" },
  { en: "I tried this at the weekend and it worked the first time.", zh: "周末试了一下，第一次就成功了。" },
  {
    en: "Would love a follow-up with more **details** on the second part.",
    zh: "希望能再写一篇，把第二部分讲得更**详细**一些。",
  },
  { en: "Bookmarked. The table alone is worth it.", zh: "已收藏，光是那张表格就很有价值。" },
  {
    en: "Small note: the link in the last section moved, but the article is great.",
    zh: "小提示：最后一节的链接地址变了，不过文章写得很好。",
  },
];
