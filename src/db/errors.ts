/** Recognises constraint failures from either store, so rules enforced by the schema map to 409/422. */

interface DriverError {
  code?: string;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** The problems a write's expected constraint failures stand for; a failure not named here is rethrown. */
export interface ViolationProblems {
  unique?: () => Error;
  foreignKey?: () => Error;
}

/**
 * Runs a write whose rule a constraint enforces (a unique name, a row deleted meanwhile) and turns
 * that constraint's failure into the rule's problem: the one place services map driver errors.
 */
export async function withConstraintProblems<T>(write: () => Promise<T>, problems: ViolationProblems): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (problems.unique && isUniqueViolation(error)) throw problems.unique();
    if (problems.foreignKey && isForeignKeyViolation(error)) throw problems.foreignKey();
    throw error;
  }
}

/**
 * Runs a transaction again when it lost a race on a unique index to a concurrent one (which has
 * committed by then, so the next run finds its row), up to `attempts` runs in all; the last run's
 * failure, a unique violation included, goes to the caller.
 */
export async function rerunAfterUniqueRace<T>(run: () => Promise<T>, attempts: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isUniqueViolation(error)) throw error;
    }
  }
}

/** PostgreSQL's deadlock_detected (40P01) and serialization_failure (40001): the transaction was rolled back whole. */
export function isLockConflict(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Runs a transaction again when PostgreSQL rolled it back to break a deadlock or a serialization
 * failure, up to `attempts` runs in all. Nothing of the failed run was kept, so the next run starts
 * from what the winner committed, as if the two had come one after the other (a deletion that won
 * makes the rerun find its record gone: 404, 401, 422 as the rules say). Every transaction of a
 * PostgreSQL store runs through it (see openStore); SQLite runs its transactions one at a time.
 */
export async function rerunAfterLockConflict<T>(run: () => Promise<T>, attempts: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isLockConflict(error)) throw error;
    }
  }
}
