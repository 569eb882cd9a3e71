import { index, type RouteConfig, route } from "@react-router/dev/routes";

// Every route, listed explicitly (DESIGN.md §3).
export default [
  index("routes/blog/home.tsx", { id: "home" }),
  route("posts", "routes/blog/home.tsx", { id: "posts-home" }),
  route("*", "routes/pages/not-found.tsx"),
] satisfies RouteConfig;
