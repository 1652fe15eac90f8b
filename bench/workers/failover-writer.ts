// The failover row's writers: `clients` connections through HAProxy, each
// committing one-row INSERTs in a loop and noting when each commit was
// acknowledged. A connection that breaks, or cannot be made while no node is
// primary, is made again after a short pause (a failed statement is simply not
// counted). Stopped, it answers when each acknowledged commit was sent and
// acknowledged, for the outage.
import pg from 'pg';
import { daemon } from '../lib/child.js';
import { sleep } from '../lib/stats.js';

export interface FailoverWriterInput {
  url: string;
  clients: number;
}

export interface FailoverWriterResult {
  /** every acknowledged commit: when it was sent and when acknowledged (epoch ms), by acknowledgement */
  acks: { sent: number; acked: number }[];
  /** statements or connections that failed */
  errors: number;
}

daemon<FailoverWriterInput, Record<string, never>>(async (input) => {
  const setup = new pg.Client({ connectionString: input.url });
  await setup.connect();
  await setup.query('CREATE TABLE IF NOT EXISTS bench_failover_writes (id bigserial PRIMARY KEY, client int NOT NULL, n int NOT NULL)');
  await setup.end();
  const acks: { sent: number; acked: number }[] = [];
  let errors = 0;
  let stopping = false;
  const writer = async (c: number) => {
    for (let n = 0; !stopping;) {
      const client = new pg.Client({ connectionString: input.url, connectionTimeoutMillis: 2_000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        while (!stopping) {
          const sent = Date.now();
          await client.query('INSERT INTO bench_failover_writes (client, n) VALUES ($1, $2)', [c, n++]);
          acks.push({ sent, acked: Date.now() });
        }
      } catch {
        errors++;
        await sleep(100);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  };
  const running = Array.from({ length: input.clients }, (_, c) => writer(c));
  return {
    ready: {},
    async stop(): Promise<FailoverWriterResult> {
      stopping = true;
      await Promise.race([Promise.all(running), sleep(10_000)]);
      return { acks: acks.sort((a, b) => a.acked - b.acked), errors };
    },
  };
});
