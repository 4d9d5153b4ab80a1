import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { andThen, type MaybePromise } from '../lib/maybe-promise.js';
import { PROJECT_ADMIN_ROLE } from '../lib/project-roles.js';
import type { Db } from './database.js';
import { fixedStatement } from './fixed-statement.js';
import { toDbBool } from './values.js';

/*
 * Which rows an actor may read, as SQL, in one place (docs/architecture.md, "Record scopes"): the
 * projects a user is a member of or administers, and the condition that reaches a table's rows by
 * their user and project columns for a reader's scopes. Every statement that narrows rows to a
 * reader takes its SQL from here, as a Kysely expression or, for the statements written as text,
 * as text with the statement's own placeholders.
 */

/** Whether a stored project role is the project admin's. */
export const isProjectAdminRole = (role: string): boolean => role === PROJECT_ADMIN_ROLE;

/** What a scope reaches: every row, the reader's own, those of their projects, those of the projects they administer. */
export type RecordScope = 'all' | 'own' | 'member' | 'administered';

/** The rows a reader may read: all of the workspace, or those its scopes reach (domain/policy.ts's ReaderScope is one). */
export type ReadableScope = { all: true } | { all: false; userId: string; scopes: readonly RecordScope[] };

/**
 * The memberships that scope a user's reading: unarchived, in the workspace; with `administered`,
 * only those with the project-admin role.
 */
export interface Memberships {
  organizationId: string;
  userId: string;
  administered: boolean;
}

/** The conditions on a project_members row, in the order every statement writes them. */
function membershipTerms(memberships: Memberships): Array<readonly [column: string, value: unknown]> {
  return [
    ['user_id', memberships.userId],
    ...(memberships.administered ? [['role', PROJECT_ADMIN_ROLE] as const] : []),
    ['archived', toDbBool(false)],
    ['organization_id', memberships.organizationId],
  ];
}

/** The placeholder of a value in a statement written as text, made in text order (`?`, or `$n` on PostgreSQL). */
export type Bind = (value: unknown) => string;

const termsText = (memberships: Memberships, bind: Bind, prefix: string): string =>
  membershipTerms(memberships)
    .map(([column, value]) => `${prefix}${column} = ${bind(value)}`)
    .join(' and ');

/** The memberships' conditions as text, on the table project_members (for a join on it). */
export const membershipConditionsText = (memberships: Memberships, bind: Bind): string => termsText(memberships, bind, 'project_members.');

/** The ids of the memberships' projects, as a parenthesized subquery in text. */
export const memberProjectsText = (memberships: Memberships, bind: Bind): string =>
  `(select project_members.project_id from project_members where ${membershipConditionsText(memberships, bind)})`;

/** The memberships' conditions on project_members under the alias `adm` (administered) or `mem`. */
function membershipConditions(memberships: Memberships): { alias: string; conditions: RawBuilder<SqlBool> } {
  const alias = memberships.administered ? 'adm' : 'mem';
  const terms = membershipTerms(memberships).map(([column, value]) => sql`${sql.raw(`${alias}.${column}`)} = ${value}`);
  return { alias, conditions: sql<SqlBool>`${sql.join(terms, sql` and `)}` };
}

/** The ids of the memberships' projects, as a parenthesized subquery (the right side of `in`). */
export function memberProjects(memberships: Memberships): RawBuilder<string> {
  const { alias, conditions } = membershipConditions(memberships);
  return sql<string>`(select ${sql.raw(alias)}.project_id from project_members ${sql.raw(alias)} where ${conditions})`;
}

/** A table's columns (as the statement names them, e.g. `a.user_id`) by which its rows belong to a user and to a project. */
export interface ScopedTable {
  organizationId: string;
  /** None: the table's rows belong to no user, and no scope `own` may reach them. */
  userColumn?: string;
  /** None: the table's rows belong to no project, and no scope `member` or `administered` may reach them. */
  projectColumn?: string;
  /**
   * For rows that belong to a client and no project (a client, its events): `member` and
   * `administered` reach them through the client's projects.
   */
  clientColumn?: string;
}

/** The ids of the clients of the memberships' projects, as a parenthesized subquery. */
export function memberClients(memberships: Memberships): RawBuilder<string> {
  return sql<string>`(select cp.client_id from projects cp where cp.client_id is not null and cp.id in ${memberProjects(memberships)})`;
}

function columnOf(column: string | undefined, scope: RecordScope): string {
  if (column === undefined) throw new Error(`The scope '${scope}' reaches rows by a column this table does not have`);
  return column;
}

/**
 * The condition that keeps the rows of a table the reader may read: `own` by the row's user,
 * `member` and `administered` by its project (or its client's projects), any of the scopes (`1 = 0` for none). Null: every row
 * of the workspace (the statement still keeps to the workspace itself).
 */
export function readableRows(scope: Extract<ReadableScope, { all: false }>, table: ScopedTable): RawBuilder<SqlBool>;
export function readableRows(scope: ReadableScope, table: ScopedTable): RawBuilder<SqlBool> | null;
export function readableRows(scope: ReadableScope, table: ScopedTable): RawBuilder<SqlBool> | null {
  if (scope.all) return null;
  const { organizationId } = table;
  const reaches = scope.scopes.map((reach) => {
    switch (reach) {
      case 'own':
        return sql`${sql.ref(columnOf(table.userColumn, reach))} = ${scope.userId}`;
      case 'administered':
      case 'member': {
        const memberships = { organizationId, userId: scope.userId, administered: reach === 'administered' };
        if (table.projectColumn === undefined && table.clientColumn !== undefined) {
          return sql`${sql.ref(table.clientColumn)} in ${memberClients(memberships)}`;
        }
        return sql`${sql.ref(columnOf(table.projectColumn, reach))} in ${memberProjects(memberships)}`;
      }
      case 'all':
        return sql`1 = 1`;
    }
  });
  return reaches.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`(${sql.join(reaches, sql` or `)})`;
}

/**
 * The values the memberships' conditions bind, in text order: what a statement written once with
 * membershipConditionsText or memberProjectsText (placeholders `?`) is given per call.
 */
export const membershipValues = (memberships: Memberships): unknown[] => membershipTerms(memberships).map(([, value]) => value);

/** The shape of an administrator's memberships, for texts written once (their values are bound per call). */
const ADMINISTERED: Memberships = { organizationId: '', userId: '', administered: true };

const ADMINISTERS_SOME_PROJECT = fixedStatement(`select 1 as yes from project_members where ${termsText(ADMINISTERED, () => '?', '')} limit 1`);

/** Whether the user administers some project of the workspace. At once, without a promise, when the store answers at once. */
export function administersSomeProject(db: Db, organizationId: string, userId: string): MaybePromise<boolean> {
  const found = ADMINISTERS_SOME_PROJECT(db, membershipValues({ organizationId, userId, administered: true }));
  return andThen(found, (rows) => rows.length > 0);
}

/** Whether the user administers the project. */
export async function administersProject(db: Db, reader: { organizationId: string; userId: string }, projectId: string): Promise<boolean> {
  const { conditions } = membershipConditions({ ...reader, administered: true });
  const found = await sql`select 1 as yes from project_members adm where adm.project_id = ${projectId} and ${conditions}`.execute(db);
  return found.rows.length > 0;
}
