import { useTranslation } from "react-i18next";
import { DISPLAY_NAME_MAX } from "../../lib/display-name.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { Field } from "../ui/field.tsx";

/** The display-name field of registration, /setup and the account page, with its hint and error. */
export function DisplayNameField({ error, defaultValue }: { error?: string | null; defaultValue?: string }) {
  const { t } = useTranslation("auth");
  const m = useMessage();
  const vars = { max: DISPLAY_NAME_MAX };
  return (
    <Field
      label={t("displayName")}
      name="name"
      autoComplete="nickname"
      required
      // Room for the server's own "too long" message rather than a silent cut (emoji take two units).
      maxLength={DISPLAY_NAME_MAX * 4}
      defaultValue={defaultValue}
      hint={t("displayNameHint", vars)}
      error={error ? m(error, vars) : null}
    />
  );
}
