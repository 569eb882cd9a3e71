import { useTranslation } from "react-i18next";
import { Link } from "../../lean/link.tsx";
import { type AdminDoc, docHref } from "../../lib/admin-docs.ts";

/**
 * "How to change it": where a page says something is set by the server's configuration, the
 * guide that says how, instead of a variable's name or a command-line flag in the page.
 */
export function DocsLink({ doc, text }: { doc: AdminDoc; text?: string }) {
  const { t } = useTranslation("adminTools");
  return (
    <Link to={docHref(doc)} className="text-blue-800 underline dark:text-blue-300">
      {text ?? t("docs.howTo")}
    </Link>
  );
}
