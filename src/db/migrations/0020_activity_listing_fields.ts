import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * activities_user_listing rebuilt for the fields GET /activities lists now, written by `npm run db:listing`
 * (docs/architecture.md "Add a field"): SQLite's index stores the record's new rendering, which the
 * listing query repeats byte for byte; PostgreSQL's includes the record's columns. The statements are
 * written out, so that this migration keeps building this very index whatever the fields become.
 */
const STATEMENTS: Record<MigrationContext['dialect'], string[]> = {
  sqlite: [
    `drop index activities_user_listing`,
    `create index activities_user_listing on activities (user_id, started_at, id, ended_at, (json_quote(id) || ` +
      `':{"id":' || json_quote(id) || ',"name":' || json_quote(name) || ',"billable":' || ` +
      `iif(billable, 'true', 'false') || ',"startedAt":' || json_quote(started_at) || ',"endedAt":' || ` +
      `json_quote(ended_at) || ',"projectId":' || json_quote(project_id) || ',"userId":' || json_quote(user_id) || ` +
      `',"taskId":' || json_quote(task_id) || ',"tagIds":' || tag_ids || '}'))`,
  ],
  postgres: [
    `drop index activities_user_listing`,
    `create index activities_user_listing on activities (user_id, started_at, id) include (ended_at, project_id, billable, name, task_id, tag_ids)`,
  ],
};

export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  for (const statement of STATEMENTS[dialect]) await sql.raw(statement).execute(db);
}
