// The browser's static import of the page; the server build makes this module empty (close-token.tsx).
export { default } from "./close-token.page.tsx";
