import type { Kysely } from 'kysely';

/**
 * The workspace's and the project's activity indexes end with id, as the listings and reports order
 * (started_at, id): a page after a key is then read from the index in order and stops at its limit,
 * whatever the planner's estimate. Without id, each page was read to the end of its period and sorted
 * whenever the planner expected few rows there, as it does for activities newer than its last
 * statistics: a detailed export of a recent period read its tail again for every page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, leading] of [
    ['activities_organization_started', 'organization_id'],
    ['activities_project_started', 'project_id'],
  ] as const) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('activities').columns([leading, 'started_at', 'id']).execute();
  }
}
