// The browser's static import of the page; the server build makes this module empty (index.tsx).
export { default } from "./index.page.tsx";
