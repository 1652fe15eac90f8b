// A witness outside the database (AUDIT_WITNESS_DIR): every checkpoint the
// service issues is also appended, and flushed to disk, to a per-workspace NDJSON
// file (`<tenant_id>.ndjson`, one checkpoint a line as GET /api/audit/checkpoint
// answers it), and the service takes its previous checkpoint from there, not
// from the table. Someone who can write the database but not this folder (docs/
// audit.md says how to mount it so) can then neither delete the service's memory
// of what it signed nor slip in a checkpoint of their own: the next check starts
// from the last line here. An auditor can keep the files as they are and give
// them to `audit verify --trusted`.
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Checkpoint } from './audit-chain.checkpoints.js';

export interface Witness {
  /** the last checkpoint appended for the workspace, or null when none was */
  latest(tenantId: string): Promise<Checkpoint | null>;
  /** appends the checkpoint and waits until it is on disk */
  append(checkpoint: Checkpoint): Promise<void>;
  /** every checkpoint appended for the workspace, oldest first */
  all(tenantId: string): Promise<Checkpoint[]>;
  /** the workspaces that have a file */
  tenants(): Promise<string[]>;
}

/** Enough for the last line: a checkpoint is about 500 bytes. */
const TAIL = 64 * 1024;
const FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.ndjson$/;

export function fileWitness(dir: string): Witness {
  const fileOf = (tenantId: string) => {
    const name = `${tenantId}.ndjson`;
    if (!FILE.test(name)) throw new Error(`not a workspace id: ${tenantId}`);
    return path.join(dir, name);
  };
  /** Complete lines only: a line without its line feed is a write that never finished (and was never answered). */
  const lines = (text: string) =>
    text
      .split('\n')
      .slice(0, -1)
      .filter((l) => l.trim() !== '');
  const parse = (line: string, file: string): Checkpoint => {
    try {
      return JSON.parse(line) as Checkpoint;
    } catch {
      throw new Error(`the witness file ${file} holds a line that is not JSON`);
    }
  };
  const missing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

  return {
    async latest(tenantId) {
      const file = fileOf(tenantId);
      let fh: FileHandle;
      try {
        fh = await fs.open(file, 'r');
      } catch (e) {
        if (missing(e)) return null;
        throw e;
      }
      try {
        const { size } = await fh.stat();
        const length = Math.min(size, TAIL);
        const buf = Buffer.alloc(length);
        await fh.read(buf, 0, length, size - length);
        const last = lines(buf.toString('utf8')).at(-1);
        return last === undefined ? null : parse(last, file);
      } finally {
        await fh.close();
      }
    },
    async append(checkpoint) {
      const file = fileOf(checkpoint.tenant_id);
      const fh = await fs.open(file, 'a+', 0o640);
      let created = false;
      try {
        const { size } = await fh.stat();
        created = size === 0;
        // After a write cut short (a crash mid-line), start on a line of our own: the fragment stays alone.
        let lead = '';
        if (size > 0) {
          const last = Buffer.alloc(1);
          await fh.read(last, 0, 1, size - 1);
          if (last[0] !== 0x0a) lead = '\n';
        }
        await fh.write(`${lead}${JSON.stringify(checkpoint)}\n`);
        await fh.sync();
      } finally {
        await fh.close();
      }
      // A new file is durable only once its folder's entry is.
      if (created) {
        const d = await fs.open(dir, 'r');
        try {
          await d.sync();
        } finally {
          await d.close();
        }
      }
    },
    async all(tenantId) {
      const file = fileOf(tenantId);
      try {
        return lines(await fs.readFile(file, 'utf8')).map((l) => parse(l, file));
      } catch (e) {
        if (missing(e)) return [];
        throw e;
      }
    },
    async tenants() {
      return (await fs.readdir(dir)).flatMap((name) => FILE.exec(name)?.[1] ?? []);
    },
  };
}
