// The browser's static import of the page; the server build makes this module empty (transfer-batch.tsx).
export { default } from "./transfer-batch.page.tsx";
