// React Router's server build, provided by its Vite plugin at build time.
declare module "virtual:react-router/server-build";

// The reader script's hashed URL (build-tools/reader-script.ts).
declare module "virtual:inkwell/reader-script" {
  const url: string;
  export default url;
}

// App pages' inline copy-button script, compiled from app/lean/code-copy.ts (build-tools/reader-script.ts).
declare module "virtual:inkwell/code-copy-script" {
  const code: string;
  export default code;
}
