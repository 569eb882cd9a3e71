import { describe, expect, it } from "vitest";
import { JSON_MAX_DEPTH, JsonRowsError, scanJsonRows } from "./json-rows.server.ts";

// The streamed reading of a Ghost export's tables: rows cut out one at a time whatever the chunk
// boundaries, only under db[0].data (or data), and hostile JSON refused without a crash.

async function rowsOf(text: string, chunkSize = text.length, tables: Set<string> | null = null) {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += chunkSize) chunks.push(text.slice(i, i + chunkSize));
  const rows: [string, unknown][] = [];
  const seen = await scanJsonRows(chunks, tables, (table, row) => {
    rows.push([table, row]);
  });
  return { rows, seen };
}

const doc = JSON.stringify({
  db: [
    {
      meta: { version: "6.0", posts: [{ id: "not a table" }] },
      data: {
        posts: [
          { id: "a", title: 'One [with] {brackets} and "quotes" \\ and 中文', html: "<p>x</p>" },
          { id: "b", nested: { posts: [{ id: "inner" }] }, list: [1, [2, [3]]] },
        ],
        'ta\\"gs': [{ id: "t" }],
        tags: [{ id: "t1", name: "Notes" }],
        users: [],
      },
    },
  ],
});

describe("scanJsonRows", () => {
  it("cuts out each row of each data table, for every chunk size", async () => {
    const whole = await rowsOf(doc);
    expect(whole.rows).toEqual([
      ["posts", { id: "a", title: 'One [with] {brackets} and "quotes" \\ and 中文', html: "<p>x</p>" }],
      ["posts", { id: "b", nested: { posts: [{ id: "inner" }] }, list: [1, [2, [3]]] }],
      ['ta\\"gs', { id: "t" }],
      ["tags", { id: "t1", name: "Notes" }],
    ]);
    expect([...whole.seen].sort()).toEqual(["posts", 'ta\\"gs', "tags", "users"].sort());
    for (const size of [1, 2, 3, 7, 64]) expect((await rowsOf(doc, size)).rows).toEqual(whole.rows);
  });

  it("reads only the tables asked for, and the bare {meta, data} form", async () => {
    const only = await rowsOf(doc, 5, new Set(["tags"]));
    expect(only.rows).toEqual([["tags", { id: "t1", name: "Notes" }]]);
    const bare = await rowsOf(JSON.stringify({ meta: {}, data: { posts: [{ id: "x" }, 3, "s"] } }), 4);
    // Rows that are not objects are not handed on.
    expect(bare.rows).toEqual([["posts", { id: "x" }]]);
    // Only db[0]: a second database entry is not read.
    const two = await rowsOf(JSON.stringify({ db: [{ data: { posts: [] } }, { data: { posts: [{ id: "no" }] } }] }));
    expect(two.rows).toEqual([]);
  });

  it("refuses what is not one JSON document, without a crash", async () => {
    for (const bad of [
      "",
      "nope",
      '{"db": [',
      '{"a": 1}}',
      '{"a": 1} {"b": 2}',
      '{"data": {"posts": [{"id": "a"]}}',
      '{"data": {"posts": [{"id": "a", }]}}',
    ])
      await expect(rowsOf(bad), bad).rejects.toThrow(JsonRowsError);
  });

  it("refuses nesting past its limit rather than recursing", async () => {
    const depth = JSON_MAX_DEPTH + 5;
    await expect(rowsOf(`${"[".repeat(depth)}${"]".repeat(depth)}`, 4096)).rejects.toThrow(/nested deeper/);
    // Deep inside a row is the row's JSON.parse's business (it does not recurse either).
    const deep = `{"data":{"posts":[{"id":"d","x":${"[".repeat(5000)}${"]".repeat(5000)}}]}}`;
    expect((await rowsOf(deep, 1000)).rows.map(([, r]) => (r as { id: string }).id)).toEqual(["d"]);
  });
});
