// Rows of a Ghost export's tables, read as a stream (decision 020, "At scale": Ghost). A Ghost
// export is `{"db":[{"meta":…,"data":{"posts":[…],"tags":[…],…}}]}` (or the bare `{"meta","data"}`)
// and nearly all of its size is the rows of `data.posts`. This scanner walks the text once,
// keeping only a stack of open containers and the keys that lead to them; each element of an
// array at `db[0].data.<table>` (or `data.<table>`) is cut out as text and parsed on its own, so
// memory holds one row, not the document. It checks only what it needs (strings, nesting,
// keys); anything else malformed fails the row's own JSON.parse, or the end check.

/** A row larger than this (its JSON text) is refused: Ghost's posts are far smaller. */
export const JSON_ROW_MAX_CHARS = 16 * 1024 * 1024;
/** Containers nested deeper than this are refused (the scanner's stack; rows are parsed by JSON.parse). */
export const JSON_MAX_DEPTH = 10_000;

export class JsonRowsError extends Error {}

/** Containers nested past JSON_MAX_DEPTH: refused before anything recursive sees them. */
export class JsonTooDeep extends JsonRowsError {}

interface Frame {
  kind: "obj" | "arr";
  /** The key this container is the value of (objects' members), or the index in its array. */
  key: string | number;
  /** In an object: the last key read, for the value that follows. */
  lastKey: string;
  /** In an array: the index of the next element. */
  index: number;
  /** This array's elements are rows of this table. */
  table: string | null;
}

/**
 * Calls `onRow(table, row)` for each element of the data tables named in `tables` (all when null),
 * in file order, reading `chunks` of text. `onRow` may be async: reading waits for it. Returns the
 * names of the tables seen (so a caller can tell a Ghost export from other JSON).
 */
export async function scanJsonRows(
  chunks: AsyncIterable<string> | Iterable<string>,
  tables: ReadonlySet<string> | null,
  onRow: (table: string, row: unknown) => void | Promise<void>,
): Promise<Set<string>> {
  const seen = new Set<string>();
  const stack: Frame[] = [];
  let inString = false;
  let escaped = false;
  /** The text of the string being read when it is a key (else null: values are not kept). */
  let keyText: string | null = null;
  let expectKey = false;
  let started = false;
  let done = false;
  /** The row being cut out: its text so far, and the stack depth of its array. */
  let row: string[] | null = null;
  let rowSize = 0;
  let rowDepth = -1;
  let rowTable = "";

  const dataPath = (): boolean => {
    // db[i].data (the usual form) or data at the top (the bare form).
    const keys = stack.map((f) => f.key);
    if (keys.length === 2) return keys[1] === "data";
    return keys.length === 4 && keys[1] === "db" && keys[2] === 0 && keys[3] === "data";
  };

  for await (const chunk of chunks) {
    let rowStart = row ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (done) {
        if (c > 0x20) throw new JsonRowsError("text after the end of the JSON document");
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (keyText !== null) {
            const top = stack[stack.length - 1];
            if (top) {
              try {
                top.lastKey = JSON.parse(`${keyText}"`) as string;
              } catch {
                throw new JsonRowsError("a key that is not a JSON string");
              }
            }
            keyText = null;
          }
          continue;
        }
        if (keyText !== null) {
          keyText += chunk[i];
          if (keyText.length > 10_000) throw new JsonRowsError("a key longer than 10,000 characters");
        }
        continue;
      }
      if (c <= 0x20) continue;
      const top = stack[stack.length - 1];
      // A row starts at its array's first non-space character after `[` or `,`.
      if (!row && top?.table && top.kind === "arr" && c !== 0x5d && c !== 0x2c && stack.length === rowDepth) {
        row = [];
        rowSize = 0;
        rowStart = i;
        rowTable = top.table;
      }
      if (c === 0x22) {
        inString = true;
        keyText = expectKey && top?.kind === "obj" ? '"' : null;
        expectKey = false;
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        if (!started) started = true;
        else if (!top) throw new JsonRowsError("more than one JSON value");
        if (stack.length >= JSON_MAX_DEPTH) throw new JsonTooDeep(`nested deeper than ${JSON_MAX_DEPTH}`);
        const key: string | number = top ? (top.kind === "obj" ? top.lastKey : top.index) : "";
        const frame: Frame = { kind: c === 0x7b ? "obj" : "arr", key, lastKey: "", index: 0, table: null };
        if (frame.kind === "arr" && !row && typeof key === "string" && dataPath()) {
          seen.add(key);
          if (tables === null || tables.has(key)) {
            frame.table = key;
            rowDepth = stack.length + 1;
          }
        }
        stack.push(frame);
        expectKey = frame.kind === "obj";
        continue;
      }
      if (c === 0x7d || c === 0x5d) {
        const closing = stack.pop();
        if (!closing || closing.kind !== (c === 0x7d ? "obj" : "arr")) throw new JsonRowsError("unbalanced brackets");
        if (closing.table) rowDepth = -1;
        if (row && stack.length === rowDepth) {
          // The row's own closing bracket: it ends here.
          row.push(chunk.slice(rowStart, i + 1));
          rowSize += i + 1 - rowStart;
          await emit();
        } else if (row && closing.table === rowTable && stack.length === rowDepth - 1) {
          // An array of rows ends right after a scalar row (`[1, 2]`): never a Ghost row, dropped.
          row = null;
        }
        if (stack.length === 0) done = true;
        expectKey = false;
        continue;
      }
      if (c === 0x2c) {
        if (top?.kind === "obj") expectKey = true;
        else if (top) top.index += 1;
        if (row && stack.length === rowDepth) {
          // A scalar row (a number, true…) ends at the comma: not an object, dropped.
          row = null;
        }
        continue;
      }
      if (c === 0x3a) {
        expectKey = false;
        continue;
      }
      if (!started) throw new JsonRowsError("not a JSON object");
    }
    if (row && rowStart >= 0) {
      row.push(chunk.slice(rowStart));
      rowSize += chunk.length - rowStart;
      if (rowSize > JSON_ROW_MAX_CHARS) throw new JsonRowsError(`a row longer than ${JSON_ROW_MAX_CHARS} characters`);
    }
  }
  if (!done) throw new JsonRowsError(started ? "the JSON document ends early" : "not a JSON document");
  return seen;

  async function emit(): Promise<void> {
    const text = (row ?? []).join("");
    row = null;
    if (text.length > JSON_ROW_MAX_CHARS) throw new JsonRowsError(`a row longer than ${JSON_ROW_MAX_CHARS} characters`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new JsonRowsError(
        `a ${rowTable} row is not JSON: ${error instanceof Error ? error.message.slice(0, 120) : ""}`,
      );
    }
    await onRow(rowTable, value);
  }
}
