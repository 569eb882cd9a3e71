// The browser's static import of the page; the server build makes this module empty (layout.tsx).
export { default } from "./layout.page.tsx";
