// A Markdown text cut at its headings, for the editor's "other language beside" panel
// (issue 47): the two versions of a post are kept in step by heading, the nth heading of
// one beside the nth of the other. Headings inside fenced code blocks do not count.

const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The 1-based line numbers of the text's ATX headings (`#` … `######`), outside fenced code. */
export function headingLines(text: string): number[] {
  const out: number[] = [];
  let fence: string | null = null;
  text.split("\n").forEach((line, i) => {
    const open = FENCE.exec(line);
    if (fence) {
      if (open?.[1] && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null;
      return;
    }
    if (open?.[1]) {
      fence = open[1];
      return;
    }
    if (HEADING.test(line)) out.push(i + 1);
  });
  return out;
}

/** How many headings start at or above line `line` (1-based): 0 before the first heading. */
export function sectionAtLine(headings: readonly number[], line: number): number {
  let n = 0;
  for (const h of headings) {
    if (h > line) break;
    n++;
  }
  return n;
}

/** The text in sections: the part before the first heading (maybe empty), then one per heading. */
export function markdownSections(text: string): string[] {
  const lines = text.split("\n");
  const starts = headingLines(text);
  const sections: string[] = [lines.slice(0, (starts[0] ?? lines.length + 1) - 1).join("\n")];
  starts.forEach((start, i) => {
    const end = starts[i + 1] ?? lines.length + 1;
    sections.push(lines.slice(start - 1, end - 1).join("\n"));
  });
  return sections;
}
