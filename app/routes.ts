import { index, type RouteConfig, route } from "@react-router/dev/routes";

/** A page under its plain path and under /en/… and /zh/…, each with its own id. */
function localized(path: string, file: string, id: string) {
  return [
    route(path, file, { id }),
    route(`en/${path}`, file, { id: `${id}-en` }),
    route(`zh/${path}`, file, { id: `${id}-zh` }),
  ];
}

/**
 * The Solana wallet tools under /solana, /en/solana and /zh/solana: one layout (network picker,
 * wallet) around the pages. Ids start with "routes/solana" so build checks can find their chunks.
 */
function solanaPages(prefix: "" | "en/" | "zh/") {
  const suffix = prefix ? `-${prefix.slice(0, 2)}` : "";
  const id = (name: string) => `routes/solana/${name}${suffix}`;
  return route(`${prefix}solana`, "routes/solana/layout.tsx", { id: id("layout") }, [
    index("routes/solana/index.tsx", { id: id("index") }),
    route("closeToken", "routes/solana/close-token.tsx", { id: id("close-token") }),
    route("transferBatch", "routes/solana/transfer-batch.tsx", { id: id("transfer-batch") }),
    route("PhantomWallet", "routes/solana/phantom.tsx", { id: id("phantom") }),
    route("WalletConnect", "routes/solana/wallet-connect.tsx", { id: id("wallet-connect") }),
  ]);
}

// Every route, listed explicitly (docs/conventions.md, "Files"). Path matching is case-insensitive,
// so /Login and /Register (the spec's spelling) reach the same pages.
export default [
  index("routes/blog/home.tsx", { id: "home" }),
  route("en", "routes/blog/home.tsx", { id: "home-en" }),
  route("zh", "routes/blog/home.tsx", { id: "home-zh" }),
  ...localized("posts", "routes/blog/home.tsx", "posts-home"),
  ...localized("posts/page/:page", "routes/blog/home.tsx", "posts-page"),
  ...localized("search", "routes/search/search.tsx", "search"),
  ...localized("categories/:slug", "routes/blog/term-posts.tsx", "category"),
  ...localized("categories/:slug/page/:page", "routes/blog/term-posts.tsx", "category-page"),
  ...localized("tags/:slug", "routes/blog/term-posts.tsx", "tag"),
  ...localized("tags/:slug/page/:page", "routes/blog/term-posts.tsx", "tag-page"),
  ...localized("series/:slug", "routes/blog/series.tsx", "series"),
  ...localized("posts/detail/:id", "routes/blog/post-detail.tsx", "post-detail"),
  ...localized("authors/:handle", "routes/blog/author.tsx", "author"),
  ...localized("authors/:handle/page/:page", "routes/blog/author.tsx", "author-page"),
  ...localized("authors/:handle/rss.xml", "routes/seo/author-feed.ts", "author-rss"),
  ...localized("authors/:handle/atom.xml", "routes/seo/author-feed.ts", "author-atom"),
  ...localized("authors/:handle/feed.json", "routes/seo/author-feed.ts", "author-json-feed"),
  // Admins write here: their own posts, and one editor screen for create and edit.
  ...localized("posts/myPosts", "routes/posts/my-posts.tsx", "my-posts"),
  ...localized("posts/createPost", "routes/posts/editor.tsx", "post-create"),
  ...localized("posts/edit/:postId", "routes/posts/editor.tsx", "post-edit"),
  ...localized("posts/edit/:postId/history", "routes/posts/history.tsx", "post-history"),
  ...localized("posts/edit/:postId/history/:range", "routes/posts/revision-diff.tsx", "post-revision-diff"),
  ...localized("posts/edit/:postId/previews", "routes/posts/previews.tsx", "post-previews"),
  // A private preview of a draft or pending changes, for whoever holds the secret link.
  ...localized("preview/:token", "routes/preview/preview.tsx", "preview"),

  ...localized("login", "routes/auth/login.tsx", "login"),
  ...localized("login/provider/:provider", "routes/auth/login-provider.ts", "login-provider"),
  ...localized("register", "routes/auth/register.tsx", "register"),
  ...localized("forgot-password", "routes/auth/forgot-password.tsx", "forgot-password"),
  ...localized("reset-password", "routes/auth/reset-password.tsx", "reset-password"),
  ...localized("verify-email", "routes/auth/verify-email.tsx", "verify-email"),
  ...localized("account", "routes/auth/account.tsx", "account"),
  route("logout", "routes/auth/logout.tsx"),
  ...localized("links", "routes/links/links.tsx", "links"),
  route("ads/:id/click", "routes/ads/click.ts"),
  ...localized("about", "routes/pages/static-page.tsx", "about"),
  ...localized("privacy", "routes/pages/static-page.tsx", "privacy"),
  ...localized("contact", "routes/pages/contact.tsx", "contact"),
  route("setup", "routes/auth/setup.tsx"),
  route("locale", "routes/pages/locale.tsx"),

  ...localized("subscribe", "routes/subscribe/subscribe.tsx", "subscribe"),
  ...localized("subscribe/confirm", "routes/subscribe/subscriber-token.tsx", "subscribe-confirm"),
  ...localized("unsubscribe", "routes/subscribe/subscriber-token.tsx", "unsubscribe"),
  ...localized("notifications/replies/stop", "routes/notify/stop-replies.tsx", "stop-replies"),

  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/dashboard.tsx"),
    route("pages", "routes/admin/pages.tsx"),
    route("pages/new", "routes/admin/page-form.tsx", { id: "admin-page-new" }),
    route("pages/:id", "routes/admin/page-form.tsx", { id: "admin-page-edit" }),
    route("menus", "routes/admin/menus.tsx"),
    route("insights", "routes/admin/insights.tsx"),
    route("insights.csv", "routes/admin/insights-csv.ts"),
    route("insights/posts/:id", "routes/admin/post-insights.tsx"),
    route("config", "routes/admin/config.tsx"),
    route("brand", "routes/admin/brand.tsx"),
    route("fediverse", "routes/admin/fediverse.tsx"),
    route("users", "routes/admin/users.tsx"),
    route("subscribers", "routes/admin/subscribers.tsx"),
    route("subscribers.csv", "routes/admin/subscribers-csv.ts"),
    route("newsletter", "routes/admin/newsletter.tsx"),
    route("newsletter/:sendId", "routes/admin/newsletter-send.tsx"),
    route("swapers", "routes/admin/swapers.tsx"),
    route("swapers/new", "routes/admin/swaper-form.tsx", { id: "admin-swaper-new" }),
    route("swapers/:id", "routes/admin/swaper-form.tsx", { id: "admin-swaper-edit" }),
    route("categories", "routes/admin/terms.tsx", { id: "admin-categories" }),
    route("categories/new", "routes/admin/term-form.tsx", { id: "admin-category-new" }),
    route("categories/:id", "routes/admin/term-form.tsx", { id: "admin-category-edit" }),
    route("tags", "routes/admin/terms.tsx", { id: "admin-tags" }),
    route("tags/new", "routes/admin/term-form.tsx", { id: "admin-tag-new" }),
    route("tags/:id", "routes/admin/term-form.tsx", { id: "admin-tag-edit" }),
    route("series", "routes/admin/series.tsx"),
    route("series/new", "routes/admin/series-form.tsx", { id: "admin-series-new" }),
    route("series/:id", "routes/admin/series-form.tsx", { id: "admin-series-edit" }),
    route("links", "routes/admin/links.tsx"),
    route("links/new", "routes/admin/link-form.tsx", { id: "admin-link-new" }),
    route("links/:id", "routes/admin/link-form.tsx", { id: "admin-link-edit" }),
    route("redirects", "routes/admin/redirects.tsx"),
    route("redirects.csv", "routes/admin/redirects-csv.ts"),
    route("redirects/import", "routes/admin/redirects-import.tsx"),
    route("redirects/new", "routes/admin/redirect-form.tsx", { id: "admin-redirect-new" }),
    route("redirects/:id", "routes/admin/redirect-form.tsx", { id: "admin-redirect-edit" }),
    route("import", "routes/admin/import.tsx"),
    route("import/:id/:file", "routes/admin/import-report.ts"),
    route("ads", "routes/admin/ads.tsx"),
    route("ads/new", "routes/admin/ad-form.tsx", { id: "admin-ad-new" }),
    route("ads/:id", "routes/admin/ad-form.tsx", { id: "admin-ad-edit" }),
    route("blog", "routes/admin/blog.tsx"),
    route("comments", "routes/admin/comments.tsx"),
    route("media", "routes/admin/media.tsx"),
    route("audit", "routes/admin/audit.tsx"),
    route("docs", "routes/admin/docs.tsx", { id: "admin-docs" }),
    route("docs/:page", "routes/admin/docs.tsx", { id: "admin-doc" }),
  ]),

  // The admin under a language prefix: sent to /admin with that language kept.
  route("en/admin", "routes/admin/prefixed.ts", { id: "admin-prefixed-en" }),
  route("en/admin/*", "routes/admin/prefixed.ts", { id: "admin-prefixed-en-rest" }),
  route("zh/admin", "routes/admin/prefixed.ts", { id: "admin-prefixed-zh" }),
  route("zh/admin/*", "routes/admin/prefixed.ts", { id: "admin-prefixed-zh-rest" }),

  solanaPages(""),
  solanaPages("en/"),
  solanaPages("zh/"),

  route("api/posts/preview", "routes/api/post-preview.ts"),
  route("api/uploads", "routes/api/uploads.ts"),
  route("api/files/:id", "routes/api/files.ts"),
  // Feeds and discovery (resource routes; the unprefixed feeds are in the site's default language).
  ...localized("rss.xml", "routes/seo/rss.ts", "rss"),
  ...localized("atom.xml", "routes/seo/atom.ts", "atom"),
  ...localized("feed.json", "routes/seo/json-feed.ts", "json-feed"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("sitemaps/:file", "routes/seo/sitemap-part.ts"),
  route("robots.txt", "routes/seo/robots.ts"),
  route("manifest.webmanifest", "routes/seo/manifest.ts"),
  route("cards/:postId/:file", "routes/seo/social-card.ts"),

  route("api/auth/password-policy", "routes/api/password-policy.ts"),
  route("api/auth/*", "routes/api/auth.ts"),

  // An owner's page at its own address (decision 035); every fixed route above wins over it.
  ...localized(":slug", "routes/pages/static-page.tsx", "page"),

  route("*", "routes/pages/not-found.tsx"),
] satisfies RouteConfig;
