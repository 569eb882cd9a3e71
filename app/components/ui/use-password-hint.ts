import { useTranslation } from "react-i18next";
import type { PasswordPolicy } from "../../lib/schemas/auth.ts";

/** The password rules in words, shown under every new-password field. */
export function usePasswordHint(policy: PasswordPolicy): string {
  const { t, i18n } = useTranslation("auth");
  const length = t("register.policy", { min: policy.minLength });
  if (policy.requiredClasses.length === 0) return length;
  const names = policy.requiredClasses.map((c) => t(`register.classes.${c}`));
  const list = new Intl.ListFormat(i18n.language === "zh" ? "zh-CN" : "en-US", { type: "conjunction" }).format(names);
  return `${length} ${t("register.classes.needs", { list })}`;
}
