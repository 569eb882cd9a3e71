// The browser's static import of the page; the server build makes this module empty (wallet-connect.tsx).
export { default } from "./wallet-connect.page.tsx";
