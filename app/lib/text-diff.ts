// A diff of two texts for the revision history: by word for English, by character for
// Chinese (a Chinese sentence has no spaces to split words at). Lines are compared first,
// then each changed stretch of lines word by word (or character by character), so a long
// post costs little more than its changes. Stretches too large to compare finely are shown
// as removed and added whole.

export type DiffOp = "equal" | "insert" | "delete";

export interface DiffPart {
  op: DiffOp;
  text: string;
}

/** The largest table (tokens × tokens) compared exactly; beyond, a stretch is replaced whole. */
const MAX_CELLS = 2_000_000;

const ENGLISH_TOKENS = /\s+|[\p{L}\p{N}_'’]+|[^\s\p{L}\p{N}_]/gu;
const CHINESE_TOKENS = /\s+|\p{Script=Han}|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

/** The units a language's text is compared in. */
export function tokenize(text: string, locale: "en" | "zh"): string[] {
  return text.match(locale === "zh" ? CHINESE_TOKENS : ENGLISH_TOKENS) ?? [];
}

function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The longest common subsequence of `a` and `b` as a list of operations, or null when the
 * comparison table would be too large.
 */
function lcsOps(a: readonly string[], b: readonly string[]): DiffOp[] | null {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) return null;
  const width = m + 1;
  // lengths[i * width + j]: the LCS length of a[i..] and b[j..].
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push("equal");
      i++;
      j++;
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) {
      ops.push("delete");
      i++;
    } else {
      ops.push("insert");
      j++;
    }
  }
  while (i++ < n) ops.push("delete");
  while (j++ < m) ops.push("insert");
  return ops;
}

function push(out: DiffPart[], op: DiffOp, text: string): void {
  if (!text) return;
  const last = out.at(-1);
  if (last && last.op === op) last.text += text;
  else out.push({ op, text });
}

/** Compares two token lists; common ends are matched first. */
function diffTokens(a: readonly string[], b: readonly string[], out: DiffPart[]): void {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  push(out, "equal", a.slice(0, start).join(""));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const ops = lcsOps(midA, midB);
  if (!ops) {
    push(out, "delete", midA.join(""));
    push(out, "insert", midB.join(""));
  } else {
    let i = 0;
    let j = 0;
    for (const op of ops) {
      if (op === "equal") {
        push(out, "equal", midA[i++] ?? "");
        j++;
      } else if (op === "delete") push(out, "delete", midA[i++] ?? "");
      else push(out, "insert", midB[j++] ?? "");
    }
  }
  push(out, "equal", a.slice(endA).join(""));
}

/** The changes from `before` to `after`, by word (en) or character (zh). */
export function diffText(before: string, after: string, locale: "en" | "zh"): DiffPart[] {
  const out: DiffPart[] = [];
  if (before === after) {
    push(out, "equal", before);
    return out;
  }
  const linesA = splitLines(before);
  const linesB = splitLines(after);
  const lineOps = lcsOps(linesA, linesB);
  if (!lineOps) {
    diffTokens(tokenize(before, locale), tokenize(after, locale), out);
    return out;
  }
  // Each run of changed lines is compared token by token.
  let i = 0;
  let j = 0;
  let removed = "";
  let added = "";
  const flush = () => {
    if (removed || added) diffTokens(tokenize(removed, locale), tokenize(added, locale), out);
    removed = "";
    added = "";
  };
  for (const op of lineOps) {
    if (op === "equal") {
      flush();
      push(out, "equal", linesA[i++] ?? "");
      j++;
    } else if (op === "delete") removed += linesA[i++] ?? "";
    else added += linesB[j++] ?? "";
  }
  flush();
  return out;
}

/** Whether a diff has any change. */
export function hasChanges(parts: readonly DiffPart[]): boolean {
  return parts.some((p) => p.op !== "equal");
}
