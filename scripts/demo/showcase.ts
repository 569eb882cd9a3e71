// The demo's style guide: one post that holds every Markdown element a post can use,
// in English and in Chinese, so a reader (and the browser test of article typography,
// tests/e2e/article.spec.ts) can see each of them in both themes.
import type { Locale } from "../../app/server/db/schema.server.ts";
import { renderPost } from "../../app/server/render/post-render.server.ts";

export const SHOWCASE_SLUG = "markdown-style-guide";

export const SHOWCASE_TITLE: Record<Locale, string> = {
  en: "A style guide in one post: every Markdown element",
  zh: "一篇文章看全所有 Markdown 元素",
};

export const SHOWCASE_SUMMARY: Record<Locale, string> = {
  en: "Headings, lists, tables, code, quotes, footnotes and pictures, as this blog shows them.",
  zh: "标题、列表、表格、代码、引用、脚注和图片，在本博客里的样子。",
};

const FENCE = "```";

const EN = `This post is a tour of what a post on this blog can hold. Every element below is written in plain Markdown; the page shows how each one reads in the light and the dark theme, on a phone and on a wide screen.

## Text and emphasis

A paragraph is plain text. Inside it you can write *emphasis*, **strong words**, ~~something crossed out~~ and \`inline code\` such as \`npm run dev\`. A [link to the about page](/about) stays on the site; an address like https://example.com becomes a link by itself.
A single line break inside a paragraph keeps the text together.

## Headings

The post's title is the only first-level heading. Sections start at the second level.

### A third-level heading

Third-level headings divide a section into parts.

#### A fourth-level heading

Fourth-level headings are rare, but they still stand out from the text around them.

## Lists

Things that have no order:

- Flour, water and salt
- A bowl large enough to stir in
  - a wooden spoon
  - a clean cloth to cover it
- Patience

Steps that do:

1. Mix the flour and the water.
2. Let the dough rest for twenty minutes.
3. Add the salt and knead until smooth.

A task list tracks what is done:

- [x] Write the first draft
- [x] Check the code samples
- [ ] Read it aloud once more

## Quotes

> A good quotation is set apart from the text around it, so the reader knows whose words these are.
>
> > A quotation can even hold another one.

## Tables

Numbers line up in columns, with a rule under every row. A wide table scrolls sideways on a narrow screen instead of the whole page.

| Step | Ingredient | Amount | Time | Temperature | Note |
| :--- | :--- | ---: | ---: | :---: | :--- |
| 1 | Flour | 500 g | 2 min | room | sift it first |
| 2 | Water | 325 ml | 10 min | 30 °C | add it slowly |
| 3 | Salt | 10 g | 5 min | room | after the rest |
| 4 | Yeast | 3 g | 12 h | 4 °C | overnight in the fridge |

## Code

A code block has a background of its own, the language in its corner and a button that copies it.

${FENCE}ts
/** Adds up the weights of a recipe, in grams. */
export function totalWeight(ingredients: { name: string; grams: number }[]): number {
  return ingredients.reduce((sum, item) => sum + item.grams, 0);
}
${FENCE}

${FENCE}bash
npm run cli -- seed --demo && npm start
${FENCE}

A long line scrolls sideways, and the block shows that there is more to see:

${FENCE}json
{ "name": "style-guide", "description": "a line long enough to run past the right edge of the block on every screen, even a wide one", "version": 1 }
${FENCE}

${FENCE}
Plain text without a language keeps its spacing    exactly.
${FENCE}

---

## Pictures

![A picture with a soft gradient, the blog's default image](/social.jpg "The blog's default picture, with a caption under it")

## Footnotes

Footnotes keep a side remark out of the way[^1] and can be used more than once in a post[^bread].

[^1]: Like this one, at the end of the post.
[^bread]: Bread dough rests better when it is covered.
`;

const ZH = `这篇文章把本博客文章里能用的元素都走一遍。下面每个元素都用普通的 Markdown 写成，页面展示它们在浅色和深色主题、手机和宽屏上的样子。

## 文字与强调

段落就是普通的文字。段落里可以写*强调*、**加粗**、~~删除线~~和\`行内代码\`，比如 \`npm run dev\`。[指向关于页面的链接](/about)留在本站；像 https://example.com 这样的网址会自动变成链接。
段落中的单个换行不会把段落断开。

## 标题

文章的标题是唯一的一级标题，正文的章节从二级标题开始。

### 三级标题

三级标题把一个章节再分成几部分。

#### 四级标题

四级标题用得不多，但也要和周围的正文区分开。

## 列表

没有先后顺序的内容：

- 面粉、水和盐
- 一个够大的碗
  - 一把木勺
  - 一块干净的布，用来盖住面团
- 耐心

有先后顺序的步骤：

1. 把面粉和水混合。
2. 让面团静置二十分钟。
3. 加盐，揉到表面光滑。

任务列表记录完成了什么：

- [x] 写好初稿
- [x] 检查代码示例
- [ ] 再朗读一遍

## 引用

> 好的引文和周围的正文分得清清楚楚，读者一眼就知道这是谁说的话。
>
> > 引文里还可以再套一段引文。

## 表格

数字按列对齐，每一行下面都有分隔线。在窄屏上，宽表格会自己横向滚动，而不是整页跟着滚动。

| 步骤 | 材料 | 用量 | 时间 | 温度 | 备注 |
| :--- | :--- | ---: | ---: | :---: | :--- |
| 1 | 面粉 | 500 克 | 2 分钟 | 室温 | 先过筛 |
| 2 | 水 | 325 毫升 | 10 分钟 | 30 °C | 慢慢加入 |
| 3 | 盐 | 10 克 | 5 分钟 | 室温 | 静置之后再加 |
| 4 | 酵母 | 3 克 | 12 小时 | 4 °C | 放冰箱过夜 |

## 代码

代码块有自己的背景色，角上标出语言，还有一个复制按钮。

${FENCE}ts
/** 把一份配方的重量加起来，单位是克。 */
export function totalWeight(ingredients: { name: string; grams: number }[]): number {
  return ingredients.reduce((sum, item) => sum + item.grams, 0);
}
${FENCE}

${FENCE}bash
npm run cli -- seed --demo && npm start
${FENCE}

很长的一行会横向滚动，代码块会提示右边还有内容：

${FENCE}json
{ "name": "style-guide", "description": "这一行足够长，在任何屏幕上都会超出代码块的右边缘，宽屏也不例外，所以需要横向滚动才能看完", "version": 1 }
${FENCE}

${FENCE}
没有标明语言的纯文本会原样保留空格    一个都不少。
${FENCE}

---

## 图片

![一张柔和渐变的图片，本博客的默认配图](/social.jpg "本博客的默认配图，下面带着图注")

## 脚注

脚注把旁白放到一边[^1]，同一篇文章里可以用好几个[^bread]。

[^1]: 就像这一条，放在文章末尾。
[^bread]: 面团盖住之后醒得更好。
`;

export const SHOWCASE_MARKDOWN: Record<Locale, string> = { en: EN, zh: ZH };

/** The style-guide post's two versions, rendered as the editor renders them on save. */
export function showcaseTranslations() {
  return Promise.all(
    (["en", "zh"] as const).map(async (locale) => {
      const rendered = await renderPost(SHOWCASE_MARKDOWN[locale], locale);
      return {
        locale,
        title: SHOWCASE_TITLE[locale],
        summary: SHOWCASE_SUMMARY[locale],
        bodyMarkdown: SHOWCASE_MARKDOWN[locale],
        bodyHtml: rendered.html,
        tocJson: JSON.stringify(rendered.toc),
        readingMinutes: rendered.readingMinutes,
      };
    }),
  );
}
