// React Router's server build, provided by its Vite plugin at build time.
declare module "virtual:react-router/server-build";

// The reader script's hashed URL (build-tools/reader-script.ts).
declare module "virtual:inkwell/reader-script" {
  const url: string;
  export default url;
}
