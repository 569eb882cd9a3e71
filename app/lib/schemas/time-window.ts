import { z } from "zod";
import { localDateTimeToIso } from "./post.ts";

/**
 * The "shown from / until" window of slides and ads, entered as `datetime-local`
 * values in the browser's zone. Each time travels with the browser's UTC offset
 * *at that moment* (`startsAtTz`, `endsAtTz`: minutes, as `Date#getTimezoneOffset`
 * gives them; see `browserOffsetAt`), so a time on the other side of a daylight-saving
 * change is not an hour off. The server converts with `localDateTimeToIso`, the one
 * conversion the post editor uses too (decision 016). Without JavaScript the offsets
 * stay 0 and the times are read as UTC.
 */

/** A `datetime-local` value (no zone) that is a real date and time, or empty. */
export const localDateTime = z
  .string()
  .trim()
  .default("")
  .refine((v) => v === "" || localDateTimeToIso(v, 0) !== null, "admin:errors.dateInvalid");

/** Minutes to add to the entered local time to get UTC. */
const offsetField = z.string().trim().default("0");

/** The window's fields, spread into a form schema. */
export const windowFields = {
  startsAt: localDateTime,
  startsAtTz: offsetField,
  endsAt: localDateTime,
  endsAtTz: offsetField,
};

export interface WindowValues {
  startsAt: string;
  startsAtTz: string;
  endsAt: string;
  endsAtTz: string;
}

/** An offset as sent by a form: whole minutes within ±14 h, anything else 0 (UTC). */
export function offsetMinutes(value: string): number {
  const n = Number(value);
  return Number.isInteger(n) && Math.abs(n) <= 14 * 60 ? n : 0;
}

/** The window as ISO UTC instants (null = open-ended). */
export function windowToUtc(v: WindowValues): { startsAt: string | null; endsAt: string | null } {
  return {
    startsAt: v.startsAt ? localDateTimeToIso(v.startsAt, offsetMinutes(v.startsAtTz)) : null,
    endsAt: v.endsAt ? localDateTimeToIso(v.endsAt, offsetMinutes(v.endsAtTz)) : null,
  };
}

/** False when both ends are set and the end is not after the start (compared in UTC). */
export function windowInOrder(v: WindowValues): boolean {
  const { startsAt, endsAt } = windowToUtc(v);
  return !startsAt || !endsAt || startsAt < endsAt;
}

/** The refinement a form schema with `windowFields` adds: the error sits on the end. */
export const WINDOW_ORDER = { path: ["endsAt"], message: "admin:errors.endBeforeStart" };
