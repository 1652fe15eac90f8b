import type { Knex } from 'knex';
import * as m001 from './001_event_store.js';

// Migrations are listed here rather than discovered on disk, so they run the
// same from TypeScript sources (tsx) and from the compiled build.
const all: Record<string, { up(k: Knex): Promise<void>; down(k: Knex): Promise<void> }> = {
  '001_event_store': m001,
};

export const migrations: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(all).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => all[name]!,
};
