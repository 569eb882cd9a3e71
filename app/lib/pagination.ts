/** `n` of a `…/page/{n}` path: a positive integer written plainly, else null (→ 404). */
export function parsePageParam(raw: string | undefined): number | null {
  if (raw === undefined) return 1;
  if (!/^[1-9]\d{0,8}$/.test(raw)) return null;
  return Number(raw);
}
