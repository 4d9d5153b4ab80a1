// A process that opens a SQLite file store, writes, closes it and ends its script: it must exit by itself, code 0.
// It imports the store module alone, not test/support/src.ts (which loads the whole app), so nothing else can hold it open.
import { sql } from 'kysely';
import { openStore } from '../../src/db/database.js';

const store = openStore(`sqlite:${process.argv[2]}`);
await sql`create table t (x integer)`.execute(store.db);
await sql`insert into t values (1)`.execute(store.db);
await store.close();
process.stdout.write('closed\n');
