import { useTranslation } from "react-i18next";
import type { AuditActorView } from "../../server/admin/audit-log.server.ts";

/** An audit entry's actor as the admin names them: the display name, never the address. */
export function useActorName(): (actor: AuditActorView) => string {
  const { t } = useTranslation("adminTools");
  return (actor) => {
    if (actor.kind === "user") return actor.name ?? t("audit.noName");
    if (actor.kind === "deleted") return t("audit.deletedAccount");
    if (actor.job === "system:scheduler") return t("audit.jobs.scheduler");
    if (actor.job === "system:import") return t("audit.jobs.import");
    return t("audit.jobs.other");
  };
}
