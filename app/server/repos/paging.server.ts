/**
 * The page an admin list shows: a requested page past the end shows the last
 * one, anything below 1 the first (admin lists clamp; public lists answer 404).
 */
export function clampPage(total: number, requested: number, pageSize: number): { page: number; pageCount: number } {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  return { page: Math.min(Math.max(1, Math.trunc(requested)), pageCount), pageCount };
}
