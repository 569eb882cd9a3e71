import {
  fromKey,
  isExternalHttpsUrl,
  isSitePath,
  locationFor,
  type RedirectKey,
  targetKey,
} from "../../lib/redirects.ts";
import { isReservedFrom } from "./reserved.server.ts";

/** One redirect as the lookup and the checks need it. */
export interface RedirectRule {
  id: string;
  /** The normalised path, and the query exactly as written ("" for none). */
  fromPath: string;
  fromQuery: string;
  to: string;
  status: number;
  external: boolean;
}

/** How many hops a chain is followed when the rules are checked (they are kept one hop long). */
const MAX_HOPS = 20;

/** Splits a stored from-path ("/old", "/?p=123") into its path and query. */
export function splitFrom(stored: string): RedirectKey {
  const q = stored.indexOf("?");
  return q < 0 ? { path: stored, query: "" } : { path: stored.slice(0, q), query: stored.slice(q + 1) };
}

/**
 * The rules by from-key, and the one lookup every reader of them shares: a request's
 * path and query match the row with exactly that query first, then the row for the path
 * alone (`/?p=123` before `/`). Also indexed by the path each rule leads to, so the rows
 * that lead to a path are found without reading them all.
 */
export class RuleSet {
  private readonly byKey = new Map<string, RedirectRule>();
  private readonly byTargetPath = new Map<string, Set<RedirectRule>>();
  private readonly byId = new Map<string, RedirectRule>();

  constructor(rules: Iterable<RedirectRule> = []) {
    for (const rule of rules) this.set(rule);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Adds or replaces the rule for its from-key. */
  set(rule: RedirectRule): void {
    const key = fromKey({ path: rule.fromPath, query: rule.fromQuery });
    const previous = this.byKey.get(key);
    if (previous) this.delete(previous);
    this.byKey.set(key, rule);
    this.byId.set(rule.id, rule);
    const target = rule.external ? null : targetKey(rule.to);
    if (target) {
      const set = this.byTargetPath.get(target.path) ?? new Set<RedirectRule>();
      set.add(rule);
      this.byTargetPath.set(target.path, set);
    }
  }

  delete(rule: RedirectRule): void {
    const key = fromKey({ path: rule.fromPath, query: rule.fromQuery });
    if (this.byKey.get(key) !== rule) return;
    this.byKey.delete(key);
    if (this.byId.get(rule.id) === rule) this.byId.delete(rule.id);
    const target = rule.external ? null : targetKey(rule.to);
    if (target) this.byTargetPath.get(target.path)?.delete(rule);
  }

  get(key: RedirectKey): RedirectRule | undefined {
    return this.byKey.get(fromKey(key));
  }

  getById(id: string): RedirectRule | undefined {
    return this.byId.get(id);
  }

  /** The rule a request for `path` (normalised) with `query` meets, if any. */
  match(path: string, query: string): RedirectRule | undefined {
    if (query !== "") {
      const exact = this.byKey.get(`${path}?${query}`);
      if (exact) return exact;
    }
    return this.byKey.get(path);
  }

  /** The rules whose target is `rule`'s from-path: a visitor following them meets `rule` next. */
  leadingTo(rule: RedirectRule): RedirectRule[] {
    const out: RedirectRule[] = [];
    for (const other of this.byTargetPath.get(rule.fromPath) ?? []) {
      const key = targetKey(other.to);
      if (other !== rule && key && this.match(key.path, key.query) === rule) out.push(other);
    }
    return out;
  }

  /**
   * Follows `target` through the rules to where a visitor finally lands (and whether that
   * is an external URL). "self" when its first hop is `start` (the rule being saved), "loop"
   * when it comes back to a rule it passed.
   */
  resolve(
    target: string,
    start: RedirectRule,
  ): { ok: true; target: string; external: boolean } | { ok: false; error: "self" | "loop" } {
    const passed = new Set<RedirectRule>([start]);
    let current = target;
    let external = start.external;
    for (let hops = 0; hops <= MAX_HOPS; hops++) {
      const key = external ? null : targetKey(current);
      const rule = key ? this.match(key.path, key.query) : undefined;
      if (!key || !rule) return { ok: true, target: current, external };
      if (passed.has(rule)) return { ok: false, error: hops === 0 ? "self" : "loop" };
      passed.add(rule);
      current = locationFor(rule, key.query);
      external = rule.external;
    }
    return { ok: false, error: "loop" };
  }
}

export type PlanError = "fromTaken" | "self" | "loop";

/** What saving a rule changes: the rule as stored (its target flattened) and the rows re-pointed past it. */
export interface Plan {
  rule: RedirectRule;
  repointed: RedirectRule[];
}

/**
 * Puts `candidate` into `rules` the way the table keeps them, one hop each: its target is
 * followed to where a visitor would finally land (a chain A→B→C is stored as A→C), and the
 * rows that led to its from-path now lead straight to its target. A loop (the target leads
 * back to it) is refused and `rules` is left as it was. `replaces` is the stored row of the
 * same id, when this is an edit.
 */
export function planRule(
  rules: RuleSet,
  candidate: RedirectRule,
  replaces?: RedirectRule,
): { ok: true; plan: Plan } | { ok: false; error: PlanError } {
  const clash = rules.get({ path: candidate.fromPath, query: candidate.fromQuery });
  if (clash && clash.id !== candidate.id) return { ok: false, error: "fromTaken" };
  if (replaces) rules.delete(replaces);
  const undo = () => {
    rules.delete(candidate);
    if (replaces) rules.set(replaces);
  };
  rules.set(candidate);
  const resolved = rules.resolve(candidate.to, candidate);
  if (!resolved.ok) {
    undo();
    return { ok: false, error: resolved.error };
  }
  const rule: RedirectRule = { ...candidate, to: resolved.target, external: resolved.external };
  rules.set(rule);
  const repointed: RedirectRule[] = [];
  for (const other of rules.leadingTo(rule)) {
    const key = targetKey(other.to);
    const moved: RedirectRule = { ...other, to: locationFor(rule, key?.query ?? ""), external: rule.external };
    rules.set(moved);
    repointed.push(moved);
  }
  return { ok: true, plan: { rule, repointed } };
}

/**
 * Rows read from the table that the HTTP step may answer: not those whose from-path the site
 * answers itself (a route, with its /en and /zh forms: reserved.server.ts), nor any whose
 * target leaves the site without the row allowing it (a row written past the checks, by hand
 * or by an older version, never takes over a page nor becomes an open redirect).
 */
export function usableRules(rules: Iterable<RedirectRule>): RuleSet {
  const set = new RuleSet();
  for (const rule of rules) {
    if (isReservedFrom({ path: rule.fromPath, query: rule.fromQuery })) continue;
    if (!isSitePath(rule.to) && !(rule.external && isExternalHttpsUrl(rule.to))) continue;
    set.set(rule);
  }
  return set;
}
