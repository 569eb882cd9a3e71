import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { useMessage } from "../lib/i18n/use-message.ts";
import { FormAlert, SubmitButton } from "./ui/field.tsx";

/**
 * The page a subscriber mail links to: opening it changes nothing (mail scanners
 * follow links); its one button does, and the page then says how that went.
 */
export function SubscriberTokenPage({
  page,
  token,
  result,
}: {
  page: "confirm" | "unsubscribe";
  token: string;
  result: { done: boolean; formError?: string; retryAfter?: number } | undefined;
}) {
  const { t } = useTranslation();
  const m = useMessage();
  const titleId = `${page}-title`;
  return (
    <section aria-labelledby={titleId} className="mx-auto max-w-sm">
      <h1 id={titleId} className="text-2xl font-bold">
        {t(`subscribe.${page}.title`)}
      </h1>
      {result?.done ? (
        <div className="mt-6">
          <FormAlert tone="success">{t(`subscribe.${page}.done`)}</FormAlert>
        </div>
      ) : result?.formError ? (
        <div className="mt-6">
          <FormAlert>{m(result.formError, { seconds: result.retryAfter ?? 60 })}</FormAlert>
        </div>
      ) : result || !token ? (
        <div className="mt-6">
          <FormAlert>{t("subscribe.invalidLink")}</FormAlert>
        </div>
      ) : (
        <Form method="post" className="mt-6 space-y-4">
          <p>{t(`subscribe.${page}.intro`)}</p>
          <input type="hidden" name="token" value={token} />
          <SubmitButton>{t(`subscribe.${page}.submit`)}</SubmitButton>
        </Form>
      )}
    </section>
  );
}
