import { useTranslation } from "react-i18next";
import enAdmin from "../../../locales/en/admin.json";
import enAdminBrand from "../../../locales/en/adminBrand.json";
import enAdminConfig from "../../../locales/en/adminConfig.json";
import enAdminContent from "../../../locales/en/adminContent.json";
import enAdminLinks from "../../../locales/en/adminLinks.json";
import enAdminNewsletter from "../../../locales/en/adminNewsletter.json";
import enAdminPages from "../../../locales/en/adminPages.json";
import enAdminTools from "../../../locales/en/adminTools.json";
import enAdminUsers from "../../../locales/en/adminUsers.json";
import enEditor from "../../../locales/en/editor.json";
import enMedia from "../../../locales/en/media.json";
import enTranslations from "../../../locales/en/translations.json";
import enWriting from "../../../locales/en/writing.json";
import zhAdmin from "../../../locales/zh/admin.json";
import zhAdminBrand from "../../../locales/zh/adminBrand.json";
import zhAdminConfig from "../../../locales/zh/adminConfig.json";
import zhAdminContent from "../../../locales/zh/adminContent.json";
import zhAdminLinks from "../../../locales/zh/adminLinks.json";
import zhAdminNewsletter from "../../../locales/zh/adminNewsletter.json";
import zhAdminPages from "../../../locales/zh/adminPages.json";
import zhAdminTools from "../../../locales/zh/adminTools.json";
import zhAdminUsers from "../../../locales/zh/adminUsers.json";
import zhEditor from "../../../locales/zh/editor.json";
import zhMedia from "../../../locales/zh/media.json";
import zhTranslations from "../../../locales/zh/translations.json";
import zhWriting from "../../../locales/zh/writing.json";
import { ADMIN_NAMESPACES, addRegisteredStrings, registerStrings } from "./i18n.ts";

/**
 * The admin area's and the editor's strings. Only the modules of those routes import
 * this file, so blog pages never download them; importing it registers them, so every
 * i18next instance created afterwards (route meta, the server's) has them, and
 * `useAdminStrings` adds them to the page's instance after a client-side navigation.
 */
const STRINGS = {
  en: {
    admin: enAdmin,
    adminUsers: enAdminUsers,
    adminConfig: enAdminConfig,
    adminBrand: enAdminBrand,
    adminContent: enAdminContent,
    adminLinks: enAdminLinks,
    adminNewsletter: enAdminNewsletter,
    adminPages: enAdminPages,
    adminTools: enAdminTools,
    media: enMedia,
    editor: enEditor,
    writing: enWriting,
    translations: enTranslations,
  },
  zh: {
    admin: zhAdmin,
    adminUsers: zhAdminUsers,
    adminConfig: zhAdminConfig,
    adminBrand: zhAdminBrand,
    adminContent: zhAdminContent,
    adminLinks: zhAdminLinks,
    adminNewsletter: zhAdminNewsletter,
    adminPages: zhAdminPages,
    adminTools: zhAdminTools,
    media: zhMedia,
    editor: zhEditor,
    writing: zhWriting,
    translations: zhTranslations,
  },
} as const;

export type AdminResources = (typeof STRINGS)["en"];

for (const namespace of ADMIN_NAMESPACES) {
  registerStrings(namespace, { en: STRINGS.en[namespace], zh: STRINGS.zh[namespace] });
}

/** Call first in an admin or editor route component, before any of its strings is read. */
export function useAdminStrings(): void {
  const { i18n } = useTranslation();
  addRegisteredStrings(i18n);
}
