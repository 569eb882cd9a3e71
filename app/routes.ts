import { index, type RouteConfig, route } from "@react-router/dev/routes";

/** A page under its plain path and under /en/… and /zh/…, each with its own id. */
function localized(path: string, file: string, id: string) {
  return [
    route(path, file, { id }),
    route(`en/${path}`, file, { id: `${id}-en` }),
    route(`zh/${path}`, file, { id: `${id}-zh` }),
  ];
}

// Every route, listed explicitly (DESIGN.md §3). Path matching is case-insensitive,
// so /Login and /Register (the spec's spelling) reach the same pages.
export default [
  index("routes/blog/home.tsx", { id: "home" }),
  route("en", "routes/blog/home.tsx", { id: "home-en" }),
  route("zh", "routes/blog/home.tsx", { id: "home-zh" }),
  ...localized("posts", "routes/blog/home.tsx", "posts-home"),
  ...localized("posts/page/:page", "routes/blog/home.tsx", "posts-page"),

  ...localized("login", "routes/auth/login.tsx", "login"),
  ...localized("login/provider/:provider", "routes/auth/login-provider.ts", "login-provider"),
  ...localized("register", "routes/auth/register.tsx", "register"),
  ...localized("forgot-password", "routes/auth/forgot-password.tsx", "forgot-password"),
  ...localized("reset-password", "routes/auth/reset-password.tsx", "reset-password"),
  ...localized("verify-email", "routes/auth/verify-email.tsx", "verify-email"),
  ...localized("account", "routes/auth/account.tsx", "account"),
  route("logout", "routes/auth/logout.tsx"),
  ...localized("about", "routes/pages/static-page.tsx", "about"),
  ...localized("privacy", "routes/pages/static-page.tsx", "privacy"),
  ...localized("contact", "routes/pages/contact.tsx", "contact"),
  route("setup", "routes/auth/setup.tsx"),
  route("locale", "routes/pages/locale.tsx"),

  ...localized("subscribe", "routes/subscribe/subscribe.tsx", "subscribe"),
  ...localized("subscribe/confirm", "routes/subscribe/confirm.tsx", "subscribe-confirm"),
  ...localized("unsubscribe", "routes/subscribe/unsubscribe.tsx", "unsubscribe"),

  route("api/auth/password-policy", "routes/api/password-policy.ts"),
  route("api/auth/*", "routes/api/auth.ts"),

  route("*", "routes/pages/not-found.tsx"),
] satisfies RouteConfig;
