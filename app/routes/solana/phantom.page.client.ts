// The browser's static import of the page; the server build makes this module empty (phantom.tsx).
export { default } from "./phantom.page.tsx";
