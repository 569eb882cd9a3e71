import { AsyncLocalStorage } from "node:async_hooks";
import { PASSWORD_CLASSES, type PasswordPolicy } from "../../lib/schemas/auth.ts";
import type { DB } from "../db/db.server.ts";
import type { Env } from "../platform/env.server.ts";
import { getSiteSettings, type SiteSettings } from "../site/site-settings.server.ts";

export const PASSWORD_MAX_LENGTH = 128;
/** The floor of every policy (spec): neither PASSWORD_MIN_LENGTH nor the admin can go lower. */
export const PASSWORD_MIN_FLOOR = 6;

/**
 * The rules a new password must meet: the admin's override from the site
 * settings (read per request, so a change applies at once), else the environment's.
 */
export function passwordPolicy(env: Env, settings: Pick<SiteSettings, "passwordPolicy">): PasswordPolicy {
  const override = settings.passwordPolicy;
  return {
    minLength: Math.max(PASSWORD_MIN_FLOOR, override ? override.minLength : env.passwordMinLength),
    maxLength: PASSWORD_MAX_LENGTH,
    requiredClasses: override
      ? PASSWORD_CLASSES.filter((c) => override.requiredClasses.includes(c))
      : env.passwordRequiredClasses,
  };
}

const registrationBypass = new AsyncLocalStorage<true>();

/** Runs `fn` with sign-up allowed even while registration is closed (the first-run setup link). */
export function withRegistrationBypass<T>(fn: () => Promise<T>): Promise<T> {
  return registrationBypass.run(true, fn);
}

export function registrationBypassed(): boolean {
  return registrationBypass.getStore() === true;
}

/** Whether a new account may be created now: the site setting, read from the database each time. */
export async function registrationAllowed(db: DB): Promise<boolean> {
  if (registrationBypassed()) return true;
  return (await getSiteSettings(db)).registrationOpen;
}
