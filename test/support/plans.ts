// Plans as EXPLAIN (ANALYZE, FORMAT JSON) gives them, for tests that check
// what a statement reads.

export interface PlanNode {
  'Node Type': string;
  'Plan Rows'?: number;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  /** buffers (EXPLAIN ANALYZE gives them from Postgres 18 on) */
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** A plan and every node under it. */
export const planNodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(planNodes)];

/** The scans of `table` in a plan (not the node that writes it). */
export const scansOf = (plan: PlanNode, table: string): PlanNode[] =>
  planNodes(plan).filter((n) => n['Relation Name'] === table && n['Node Type'] !== 'ModifyTable');

/**
 * Rows a plan read from `table`: what its scans returned or filtered out (EXPLAIN gives both per loop), over all their
 * loops. Postgres 18 gives the rows a loop as an average to two decimals (0.88 for 14 rows in 16 loops): the product
 * is rounded to the whole rows it stands for.
 */
export const rowsRead = (plan: PlanNode, table: string): number =>
  scansOf(plan, table).reduce(
    (sum, n) => sum + Math.round((n['Actual Rows']! + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) * n['Actual Loops']!),
    0,
  );
