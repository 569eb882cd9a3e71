// Every namespace a page may hold, for i18next's typed keys: the readers' (i18n.ts) and
// those that load with some routes only (admin-strings.ts, the /solana strings). Its own
// file because i18n.ts is what those modules register with: naming their strings there
// made i18n.ts and admin-strings.ts import each other.
import type enSolana from "../../../locales/en/solana.json";
import type { AdminResources } from "./admin-strings.ts";
import type { resources } from "./i18n.ts";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: (typeof resources)["en"] & AdminResources & { solana: typeof enSolana };
  }
}
