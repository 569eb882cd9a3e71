import { useTranslation } from "react-i18next";

/**
 * Translates a message key that arrived as data (a form error from an action or
 * a schema), e.g. `auth:errors.emailInvalid`. Unknown keys never reach the page:
 * they show the generic error instead.
 */
export function useMessage(): (key: string, vars?: Record<string, string | number>) => string {
  const { t, i18n } = useTranslation();
  return (key, vars) => {
    const known = i18n.exists(key) ? key : "auth:errors.internalError";
    return t(known as "siteName", vars ?? {});
  };
}
