import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestStore {
  name: 'sqlite' | 'postgres';
  /** A DATABASE_URL of a store no other test file uses. */
  freshUrl(): string;
  /** Removes what freshUrl made (PostgreSQL schemas). */
  drop(url: string): Promise<void>;
}

const sqlite: TestStore = {
  name: 'sqlite',
  freshUrl: () => 'sqlite::memory:',
  drop: async () => {},
};

function postgres(baseUrl: string): TestStore {
  return {
    name: 'postgres',
    freshUrl: () => {
      const url = new URL(baseUrl);
      url.searchParams.set('schema', `test_${randomBytes(6).toString('hex')}`);
      return url.toString();
    },
    drop: async (url) => {
      const parsed = new URL(url);
      const schema = parsed.searchParams.get('schema');
      parsed.searchParams.delete('schema');
      const client = new pg.Client({ connectionString: parsed.toString() });
      await client.connect();
      try {
        await client.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const testStores: TestStore[] = process.env.TEST_DATABASE_URL
  ? [sqlite, postgres(process.env.TEST_DATABASE_URL)]
  : [sqlite];
