import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestStore {
  name: 'sqlite' | 'postgres';
  /** A DATABASE_URL of a store no other test file uses. */
  freshUrl(): string;
}

const sqlite: TestStore = {
  name: 'sqlite',
  freshUrl: () => 'sqlite::memory:',
};

/*
 * Each PostgreSQL suite gets a schema `test_<epoch seconds>_<random>`. Schemas are not dropped when a
 * suite ends: a DROP running while another suite introspects the catalog (Kysely's migrator does) can
 * fail that suite. Instead the global setup sweeps schemas older than a day, which no run still uses.
 */
const SCHEMA = /^test_(\d+)_[0-9a-f]+$/;
const SWEEP_AFTER_SECONDS = 24 * 60 * 60;

function postgres(baseUrl: string): TestStore {
  return {
    name: 'postgres',
    freshUrl: () => {
      const url = new URL(baseUrl);
      url.searchParams.set('schema', `test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`);
      return url.toString();
    },
  };
}

/** Drops the test schemas of runs long finished. */
export async function sweepOldTestSchemas(baseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>("select nspname from pg_namespace where nspname like 'test\\_%'");
    const cutoff = Date.now() / 1000 - SWEEP_AFTER_SECONDS;
    for (const { nspname } of rows) {
      const match = SCHEMA.exec(nspname);
      if (match && Number(match[1]) < cutoff) await client.query(`drop schema if exists ${nspname} cascade`);
    }
  } finally {
    await client.end();
  }
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const testStores: TestStore[] = process.env.TEST_DATABASE_URL
  ? [sqlite, postgres(process.env.TEST_DATABASE_URL)]
  : [sqlite];
