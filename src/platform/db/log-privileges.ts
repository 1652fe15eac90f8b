// The event log is append-only by privilege, not by convention (issue 44, part 5).
//
// Two logins: the owner, which runs the migrations and owns the log, and the
// serving role, which every request, worker and projector connects as. The
// serving role owns everything else (read models, keys, deliveries: all of it
// rebuildable from the log or not evidence), so it keeps bypassing row-level
// security for the work that crosses tenants, as the single login did. On the
// log it holds SELECT and INSERT and nothing more: UPDATE, DELETE, TRUNCATE,
// ALTER, DROP and turning row-level security off are the owner's, and the
// serving role is not a member of the owner. A stolen serving password, or a
// SQL injection, can append but never rewrite; whoever holds the owner's (a
// database administrator) still can, which is what the hash chain, the
// checkpoints and the witness are for (docs/audit.md).
//
// Applied after every migration run, under the migrations' lock, by the owner;
// each step looks first and changes only what differs, so on a database already
// in shape it takes no table lock.
import { TENANT_ROLE } from './tenant-scope.js';

/** The tables that are the log: appended to, never changed. */
export const LOG_TABLES = ['events'] as const;

/** knex's own bookkeeping: the owner's, as the migrations are. */
const OWNER_ONLY = ['knex_migrations', 'knex_migrations_lock'];

interface Query {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;

const KIND: Record<string, string> = { r: 'TABLE', p: 'TABLE', v: 'VIEW', m: 'MATERIALIZED VIEW', S: 'SEQUENCE' };

/** What the owner did, and what it could not make safe (logged by the caller). */
export interface Separation {
  changed: string[];
  warnings: string[];
}

/**
 * Gives `serving` everything but the log, and on the log only SELECT and INSERT (and the log's id sequence,
 * USAGE). Run on the owner's connection (`conn`), which must be a superuser or a member of `serving`.
 */
export async function separateLog(conn: Query, serving: string): Promise<Separation> {
  const changed: string[] = [];
  const warnings: string[] = [];
  const run = async (sql: string) => {
    await conn.query(sql);
    changed.push(sql);
  };
  const me = String((await conn.query('SELECT current_user AS me')).rows[0]!.me);
  if (me === serving) return { changed, warnings };
  const role = (await conn.query('SELECT rolsuper FROM pg_roles WHERE rolname = $1', [serving])).rows[0];
  if (!role) throw new Error(`the serving role ${serving} does not exist: create it (a LOGIN role) before starting with an owner`);
  if (role.rolsuper === true) warnings.push(`the serving role ${serving} is a superuser: no privilege binds it, and it can rewrite the event log`);
  const memberOf = async (member: string, of: string) => (await conn.query("SELECT pg_has_role($1, $2, 'MEMBER') AS m", [member, of])).rows[0]!.m === true;
  if (await memberOf(serving, me))
    warnings.push(`the serving role ${serving} is a member of the owner ${me}: it can take the owner's privileges and rewrite the event log`);

  // Requests take the tenant role inside their transactions (row-level security).
  if (!(await memberOf(serving, TENANT_ROLE))) await run(`GRANT ${TENANT_ROLE} TO ${ident(serving)}`);

  const keep = [...LOG_TABLES, ...OWNER_ONLY];
  const objects = await conn.query(
    `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
        AND pg_get_userbyid(c.relowner) <> $1 AND NOT c.relname = ANY($2::text[])
        -- a sequence that belongs to a column moves with its table
        AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i')))
        AND NOT c.relispartition
      ORDER BY 1`,
    [serving, keep],
  );
  for (const o of objects.rows) await run(`ALTER ${KIND[String(o.kind)]} ${ident(String(o.name))} OWNER TO ${ident(serving)}`);

  for (const table of LOG_TABLES) {
    const owner = (await conn.query('SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE oid = to_regclass($1)', [table])).rows[0];
    if (!owner) continue;
    if (owner.owner !== me) await run(`ALTER TABLE ${ident(table)} OWNER TO ${ident(me)}`);
    for (const grantee of [serving, TENANT_ROLE]) {
      const has = (
        await conn.query(
          `SELECT ${['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'].map((p) => `has_table_privilege($1, $2, '${p}') AS "${p}"`).join(', ')}`,
          [grantee, table],
        )
      ).rows[0]!;
      const extra = ['UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'].some((p) => has[p] === true);
      if (extra || has.SELECT !== true || has.INSERT !== true) {
        await run(`REVOKE ALL ON TABLE ${ident(table)} FROM ${ident(grantee)}`);
        await run(`GRANT SELECT, INSERT ON TABLE ${ident(table)} TO ${ident(grantee)}`);
      }
    }
    // The sequences of its columns (a bigserial position): nextval only, never setval.
    const seqs = await conn.query(
      `SELECT s.relname AS name FROM pg_class s JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid AND d.deptype IN ('a', 'i')
        WHERE s.relkind = 'S' AND d.refobjid = to_regclass($1)`,
      [table],
    );
    for (const s of seqs.rows) {
      const name = String(s.name);
      for (const grantee of [serving, TENANT_ROLE]) {
        const has = (await conn.query("SELECT has_sequence_privilege($1, $2, 'USAGE') AS u, has_sequence_privilege($1, $2, 'UPDATE') AS w", [grantee, name]))
          .rows[0]!;
        if (has.u !== true || has.w === true) {
          await run(`REVOKE ALL ON SEQUENCE ${ident(name)} FROM ${ident(grantee)}`);
          await run(`GRANT USAGE ON SEQUENCE ${ident(name)} TO ${ident(grantee)}`);
        }
      }
    }
    // Not its owner, the serving role is under the log's row-level security: it reads and appends every
    // workspace's events (projectors, the change feed's dispatcher), as it did when it owned the table.
    const policy = (
      await conn.query("SELECT roles::text[] AS roles FROM pg_policies WHERE schemaname = current_schema() AND tablename = $1 AND policyname = 'serving_log'", [
        table,
      ])
    ).rows[0];
    const roles = (policy?.roles as string[] | undefined) ?? null;
    if (!roles || roles.length !== 1 || roles[0] !== serving) {
      if (roles) await run(`DROP POLICY serving_log ON ${ident(table)}`);
      await run(`CREATE POLICY serving_log ON ${ident(table)} TO ${ident(serving)} USING (true) WITH CHECK (true)`);
    }
  }
  return { changed, warnings };
}
