import { z } from "zod";

/** http(s) URL or a site-relative path (not `//host`). */
export function isSafeUrl(value: string): boolean {
  if (/^\/(?![/\\])/.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

const optionalText = (max: number, message: string) => z.string().trim().max(max, message).default("");

/** `datetime-local` value (no zone) as entered, or empty. */
const localDateTime = z
  .string()
  .trim()
  .default("")
  .refine((v) => v === "" || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(v), "admin:errors.dateInvalid");

/** One schema for the slide form, used in the browser and in the action. */
export const swaperSchema = z
  .object({
    titleEn: optionalText(120, "admin:errors.titleTooLong"),
    titleZh: optionalText(120, "admin:errors.titleTooLong"),
    imageUrl: z
      .string({ error: "admin:errors.imageRequired" })
      .trim()
      .min(1, "admin:errors.imageRequired")
      .max(2000, "admin:errors.urlInvalid")
      .refine(isSafeUrl, "admin:errors.urlInvalid"),
    imageAlt: optionalText(200, "admin:errors.altTooLong"),
    linkUrl: z
      .string()
      .trim()
      .max(2000, "admin:errors.urlInvalid")
      .default("")
      .refine((v) => v === "" || isSafeUrl(v), "admin:errors.urlInvalid"),
    sortOrder: z
      .string()
      .trim()
      .default("0")
      .refine((v) => /^-?\d{1,6}$/.test(v || "0"), "admin:errors.orderInvalid"),
    enabled: z.string().optional(),
    startsAt: localDateTime,
    endsAt: localDateTime,
    /** Minutes to add to the browser's local time to get UTC (Date#getTimezoneOffset). */
    tzOffset: z.string().trim().default("0"),
  })
  .refine((v) => !v.startsAt || !v.endsAt || v.startsAt < v.endsAt, {
    path: ["endsAt"],
    message: "admin:errors.endBeforeStart",
  });

export type SwaperForm = z.infer<typeof swaperSchema>;

/** A `datetime-local` value entered with the browser's offset, as an ISO UTC string. */
export function localToIso(value: string, tzOffsetMinutes: number): string | null {
  if (!value) return null;
  const [date, time] = value.split("T");
  const [y, mo, d] = (date ?? "").split("-").map(Number);
  const [h, mi, s] = (time ?? "").split(":").map(Number);
  const ms = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0) + tzOffsetMinutes * 60_000;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** An ISO UTC string as a `datetime-local` value in a zone with this offset. */
export function isoToLocal(iso: string | null, tzOffsetMinutes: number): string {
  if (!iso) return "";
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return "";
  return new Date(ms - tzOffsetMinutes * 60_000).toISOString().slice(0, 16);
}
