// Migration 043 claims each e-mail channel address of an existing database for
// its oldest channel (the one the SMTP receiver already delivers to), so a
// database that got duplicates through the race it closes still migrates.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import * as m043 from '../../src/platform/db/migrations/043_channel_addresses.js';
import { createTestDb, type TestDb } from '../support/db.js';

describe('migration 043: channel addresses (int)', () => {
  let t: TestDb;
  before(async () => (t = await createTestDb('channel_addresses_043')));
  after(async () => t?.drop());

  it('claims each address for its oldest e-mail channel, ignoring case, and then refuses a second claim', async () => {
    await m043.down(t.db);
    const channel = (address: string | null, at: string, kind = 'email') => ({
      tenant_id: randomUUID(),
      id: randomUUID(),
      kind,
      name: 'Support',
      source: address ?? 'bridge',
      address,
      created_at: at,
      updated_at: at,
    });
    const older = channel('Help@Dup.example', '2026-01-01T00:00:00Z');
    const younger = channel('help@dup.example', '2026-02-01T00:00:00Z');
    const single = channel('sales@one.example', '2026-03-01T00:00:00Z');
    await t.db('channels').insert([younger, older, single, channel(null, '2026-01-01T00:00:00Z', 'api')]);
    await m043.up(t.db);
    const rows = await t.db('channel_addresses').orderBy('address').select('tenant_id', 'channel_id', 'address');
    expect(rows).to.deep.equal([
      { tenant_id: older.tenant_id, channel_id: older.id, address: 'help@dup.example' },
      { tenant_id: single.tenant_id, channel_id: single.id, address: 'sales@one.example' },
    ]);
    const again = await t
      .db('channel_addresses')
      .insert({ tenant_id: randomUUID(), channel_id: randomUUID(), address: 'SALES@one.example' })
      .then(
        () => null,
        (e: { code?: string }) => e.code,
      );
    expect(again).to.equal('23505');
  });
});
