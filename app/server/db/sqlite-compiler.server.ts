import { type BinaryOperationNode, type LimitNode, OperatorNode, SqliteQueryCompiler, ValueNode } from "kysely";

/**
 * SQLite's compiler, written so that SQLite does not compile a statement again each time it
 * runs (docs/decisions/024-lean-reading-pages.md, "Statements SQLite compiled on every run").
 *
 * While planning, SQLite 3.54 marks the parameters whose value could change the plan: the
 * right-hand side of a `column = ?` (is it a 0 or 1?), a `limit ?`, a `like ?`, a value
 * compared with a partial index's WHERE. Binding such a parameter anew may expire the
 * statement, and `sqlite3_clear_bindings`, which better-sqlite3 calls after every run,
 * expires any statement with a marked parameter. So nearly every statement with a
 * parameter was parsed and planned again on every run: 30–300 µs for the post page's
 * queries, against 4–100 µs to run them.
 *
 * Two things keep the plans and drop the recompiling:
 * - Every parameter is written `+?`. A unary plus leaves the value as it is (no affinity,
 *   either way) and an index can still be used for `column = +?`; SQLite does not look
 *   through it for the value, so it marks nothing.
 * - A whole-number LIMIT and an equality with 0 or 1 are written as literals: the planner
 *   saw those values before too (it read the bound value on each recompile), and they take
 *   few values, so they add few distinct statements.
 */
export class InliningSqliteQueryCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return "+?";
  }

  protected override visitLimit(node: LimitNode): void {
    const limit = inlinable(node.limit, () => true);
    if (limit === null) super.visitLimit(node);
    else this.append(`limit ${limit}`);
  }

  protected override visitBinaryOperation(node: BinaryOperationNode): void {
    const right = OperatorNode.is(node.operator) && EQUALITY.has(node.operator.operator) ? node.rightOperand : null;
    const value = right ? inlinable(right, (n) => n === 0 || n === 1) : null;
    if (value === null) {
      super.visitBinaryOperation(node);
      return;
    }
    this.visitNode(node.leftOperand);
    this.append(" ");
    this.visitNode(node.operator);
    this.append(` ${value}`);
  }
}

const EQUALITY = new Set(["=", "==", "is"]);

/** The node's value when it is a bound whole number that `accept` takes, else null. */
function inlinable(node: BinaryOperationNode["rightOperand"], accept: (n: number) => boolean): number | null {
  if (!ValueNode.is(node) || node.immediate) return null;
  const { value } = node;
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && accept(value) ? value : null;
}
