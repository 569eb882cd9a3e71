/** How long a private preview link may work, in hours (issue 23): 1 hour to 30 days, 48 by default. */
export const PREVIEW_HOURS = { min: 1, max: 30 * 24, default: 48 } as const;

/** The expiries the form offers, in hours. */
export const PREVIEW_CHOICES = [1, 6, 24, 48, 24 * 7, 24 * 30] as const;
