import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DialectAdapter,
  type Driver,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';

/** One outer transaction shared by the request transactions of one turn of the event loop. */
interface Batch {
  committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

const COMMIT = CompiledQuery.raw('commit');

const batchRolledBack = () => new Error('SQLite rolled back the batched transaction');

/**
 * Kysely's SQLite driver, with the transactions that start within one turn of the event loop
 * committed together: the first opens an outer transaction (BEGIN IMMEDIATE) and schedules its
 * COMMIT for the end of the turn; each transaction runs inside it as a savepoint, released on
 * success and rolled back to on failure, so each stays atomic and isolated in the serial order of
 * the single connection. One COMMIT then writes the pages of many requests to the WAL once (a
 * page changed by several of them, such as the end of an index, is written once), instead of once
 * per request.
 *
 * Nothing of a batch may count before its COMMIT: whoever used the connection while a batch was
 * open gets the connection's release (and so the end of its transaction or query) only once that
 * batch has committed, and an error if it did not (SQLite may roll a whole transaction back on its
 * own, after an I/O error or a full disk): every request that shared a lost batch fails instead of
 * being answered.
 */
class BatchingSqliteDriver extends SqliteDriver {
  private batch: Batch | undefined;
  /** Whether someone holds the connection through Kysely (between its acquire and its release). */
  private held = false;
  /**
   * The batch's BEGIN and the request savepoints, run on the connection directly: they take no
   * parameters and return nothing. (The COMMIT goes through the store's statements, which count it
   * for the WAL's flush.)
   */
  private readonly control: Record<'begin' | 'savepoint' | 'release' | 'rollback', SqliteDatabase.Statement>;

  constructor(
    config: SqliteDialectConfig,
    private readonly connection: SqliteDatabase.Database,
  ) {
    super(config);
    this.control = {
      begin: connection.prepare('begin immediate'),
      savepoint: connection.prepare('savepoint request'),
      release: connection.prepare('release request'),
      rollback: connection.prepare('rollback to request'),
    };
  }

  /**
   * Resolves once the batch open now (if any) has committed, rejecting if it did not. A later batch
   * holds nothing of a caller that has finished its work, so it is not waited for.
   */
  async settled(): Promise<void> {
    await this.batch?.committed;
  }

  override async acquireConnection(): ReturnType<SqliteDriver['acquireConnection']> {
    const connection = await super.acquireConnection();
    this.held = true;
    return connection;
  }

  /**
   * Whether a statement may run straight on the connection now: nobody holds it, no batch is open and
   * SQLite has no transaction on it. Such a statement sees only committed data and, better-sqlite3
   * being synchronous, ends before anyone else can use the connection.
   */
  idle(): boolean {
    return !this.held && this.batch === undefined && !this.connection.inTransaction;
  }

  override async beginTransaction(): Promise<void> {
    if (this.batch && !this.connection.inTransaction) this.lose(batchRolledBack());
    if (this.batch === undefined) {
      this.control.begin.run();
      this.batch = newBatch();
      setImmediate(() => void this.commitBatch());
    }
    this.control.savepoint.run();
  }

  override async commitTransaction(): Promise<void> {
    this.control.release.run();
  }

  override async rollbackTransaction(): Promise<void> {
    if (!this.connection.inTransaction) {
      // The error rolled back the outer transaction too: the batch is lost with it.
      this.lose(batchRolledBack());
      return;
    }
    this.control.rollback.run();
    this.control.release.run();
  }

  /**
   * Hands the connection on, then waits for the batch open while the caller held it: whatever the
   * caller wrote or read there counts only once that batch has committed, so its transaction (or
   * query) resolves only then, and rejects if the batch was lost.
   */
  override async releaseConnection(): Promise<void> {
    const batch = this.batch;
    this.held = false;
    await super.releaseConnection();
    if (batch) await batch.committed;
  }

  override async destroy(): Promise<void> {
    await this.settled().catch(() => undefined);
    await super.destroy();
  }

  private async commitBatch(): Promise<void> {
    const connection = await this.acquireConnection();
    const batch = this.batch;
    this.batch = undefined;
    try {
      if (batch === undefined) return;
      if (!this.connection.inTransaction) throw batchRolledBack();
      await connection.executeQuery(COMMIT);
      batch.resolve();
    } catch (error) {
      if (this.connection.inTransaction) this.connection.exec('rollback');
      batch?.reject(error);
    } finally {
      this.held = false;
      await super.releaseConnection();
    }
  }

  private lose(error: Error): void {
    this.batch?.reject(error);
    this.batch = undefined;
  }
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const committed = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  committed.catch(() => undefined); // observed by settled(); never an unhandled rejection
  return { committed, resolve, reject };
}

/**
 * SQLite's adapter, which also runs a statement straight on the connection: for a transaction, which
 * holds the only connection from its BEGIN to its end (Kysely's mutex), and outside one while the
 * connection is idle (BatchingSqliteDriver.idle). better-sqlite3 runs a statement to its end before
 * anything else can, so nothing else can be using the connection. That skips Kysely's executor,
 * connection provider and their promises (most of a primary-key read's cost), for the fixed
 * statements of the hot paths (fixedStatement).
 */
export class DirectSqliteAdapter extends SqliteAdapter {
  constructor(
    private readonly database: KyselySqliteDatabase,
    /** Whether a statement outside a transaction may run on the connection now. */
    readonly connectionIdle: () => boolean,
  ) {
    super();
  }

  /** The rows of a reading statement; none of a writing one (as Kysely's SQLite connection gives them). */
  rows<Row>(text: string, parameters: readonly unknown[]): Row[] {
    const statement = this.database.prepare(text);
    if (statement.reader) return statement.all(parameters) as Row[];
    statement.run(parameters);
    return [];
  }
}

/** SqliteDialect with the batching driver; `driver` is exposed for the store's durability checks. */
export class BatchingSqliteDialect extends SqliteDialect {
  readonly driver: BatchingSqliteDriver;
  private readonly adapter: DirectSqliteAdapter;

  constructor(config: SqliteDialectConfig & { database: KyselySqliteDatabase }, connection: SqliteDatabase.Database) {
    super(config);
    this.driver = new BatchingSqliteDriver(config, connection);
    this.adapter = new DirectSqliteAdapter(config.database, () => this.driver.idle());
  }

  override createDriver(): Driver {
    return this.driver;
  }

  override createAdapter(): DialectAdapter {
    return this.adapter;
  }
}
