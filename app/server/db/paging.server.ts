/**
 * The page an admin list shows: a requested page past the end shows the last
 * one, anything below 1 the first (admin lists clamp; public lists answer 404).
 */
export function clampPage(total: number, requested: number, pageSize: number): { page: number; pageCount: number } {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  return { page: Math.min(Math.max(1, Math.trunc(requested)), pageCount), pageCount };
}

/** One page of an admin list, and where it sits among the rest. */
export interface AdminPage<R> {
  items: R[];
  total: number;
  page: number;
  pageCount: number;
}

/**
 * An admin list's page: `total` rows counted, the requested page clamped to them,
 * and `rows(limit, offset)` asked for that page only.
 */
export async function adminPage<R>(
  total: number,
  opts: { page: number; pageSize: number },
  rows: (limit: number, offset: number) => Promise<R[]>,
): Promise<AdminPage<R>> {
  const { page, pageCount } = clampPage(total, opts.page, opts.pageSize);
  return { items: await rows(opts.pageSize, (page - 1) * opts.pageSize), total, page, pageCount };
}
