/** Types of scripts/crash-test.mjs, for test/durability/crash.test.ts. */

export type WriteKind = 'activity' | 'lock' | 'project' | 'request' | 'resolution';

/** One write sent to the server; `acked` and `answer` only when it answered 2xx. */
export interface Write {
  kind: WriteKind;
  /** activity and project: the name; lock: `userId/year/week`; request: the project id; resolution: the request id. */
  key: string;
  acked?: true;
  answer?: { id: string; [field: string]: unknown };
  startedAt?: string;
  endedAt?: string;
  unlockedTo?: string | null;
  projectId?: string;
  userIds?: string[];
  status?: 'RESOLVED' | 'REJECTED';
}

export interface Figures {
  sent: number;
  acknowledged: number;
  present: number;
  lost: number;
  /** Sent but not answered (the kill cut them off): they may or may not have committed. */
  inDoubt: number;
  inDoubtPresent: number;
}

export interface SqliteIntegrity {
  integrityCheck: string;
  foreignKeyViolations: number;
}

export interface CrashResult extends Figures {
  store: 'sqlite' | 'postgres';
  databaseUrl: string;
  cycles: number;
  seconds: number;
  errorAnswers: number;
  byKind: Record<WriteKind, Figures>;
  workflow: { requests: number; violations: number };
  integrity?: { afterLastKill: SqliteIntegrity; afterShutdown: SqliteIntegrity };
  failures: string[];
  ok: boolean;
}

export interface CrashOptions {
  databaseUrl: string;
  cycles?: number;
  secondsPerCycle?: number;
  concurrency?: number;
  log?: (line: string) => void;
  beforeVerify?: (state: { acknowledged: Write[] }) => Promise<void>;
}

export function runCrashTest(options: CrashOptions): Promise<CrashResult>;
export function crashSchemaUrl(baseUrl: string): string;
export function tempSqliteUrl(): string;
export function formatResults(results: CrashResult[]): string;
export function parseArgs(
  argv: string[],
  env?: Record<string, string | undefined>,
): {
  store: 'sqlite' | 'postgres' | 'both';
  cycles: number;
  secondsPerCycle: number;
  concurrency: number;
  database?: string;
  keep: boolean;
  json: boolean;
  help?: boolean;
};
