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
 * Each PostgreSQL suite gets a schema `test_<run>_<random>`, where <run> is the start of the test run
 * in epoch seconds (set once by the global setup). No suite drops its schema while others run: a DROP
 * during another suite's catalog read (Kysely's migrator reads the whole catalog) fails that suite.
 * The global teardown drops the run's schemas once every suite is done, and the setup sweeps those of
 * runs that never reached their teardown. Fewer schemas also keep the catalog reads fast.
 */
const SCHEMA = /^test_(\d+)_[0-9a-f]+$/;
const STALE_AFTER_SECONDS = 6 * 60 * 60;
export const RUN_VARIABLE = 'TIMETRACK_TEST_RUN';

const currentRun = () => process.env[RUN_VARIABLE] ?? String(Math.floor(Date.now() / 1000));

function postgres(baseUrl: string): TestStore {
  return {
    name: 'postgres',
    freshUrl: () => {
      const url = new URL(baseUrl);
      url.searchParams.set('schema', `test_${currentRun()}_${randomBytes(4).toString('hex')}`);
      return url.toString();
    },
  };
}

/** Drops test schemas: those of one run, or (without a run) those of runs started hours ago. */
export async function dropTestSchemas(baseUrl: string, run?: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>("select nspname from pg_namespace where nspname like 'test\\_%'");
    const cutoff = Date.now() / 1000 - STALE_AFTER_SECONDS;
    for (const { nspname } of rows) {
      const started = SCHEMA.exec(nspname)?.[1];
      const drop = run !== undefined ? started === run : started === undefined || Number(started) < cutoff;
      if (drop) await client.query(`drop schema if exists ${nspname} cascade`);
    }
  } finally {
    await client.end();
  }
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const testStores: TestStore[] = process.env.TEST_DATABASE_URL
  ? [sqlite, postgres(process.env.TEST_DATABASE_URL)]
  : [sqlite];
