/*
 * What the migrations wrote into users' databases and the listing must keep agreeing with. Never
 * edit a constant named after its migration (`…_0005`): that migration must go on creating exactly
 * what it created. A change needs a new migration that rebuilds what they froze: for the listing
 * index, `npm run db:listing` writes it (docs/architecture.md "Add a field").
 */

/**
 * One listed activity as GET /activities renders it, `"<id>":{"id":…,"userId":…}`, rendered by SQLite:
 * the same bytes as the service's serializer gives for the Activity schema (keys in schema order,
 * JSON string escapes as JSON.stringify makes them, booleans true/false, null for a running timer's
 * endedAt and a missing project). Migration 0005 stored it in the index activities_user_listing, so
 * a user's listing is read from that index alone; a query must use this very expression for SQLite
 * to match it.
 */
export const SQLITE_ACTIVITY_ENTRY_0005 =
  `(json_quote(id) || ':{"id":' || json_quote(id) || ',"name":' || json_quote(name) || ` +
  `',"billable":' || iif(billable, 'true', 'false') || ',"startedAt":' || json_quote(started_at) || ` +
  `',"endedAt":' || json_quote(ended_at) || ',"projectId":' || json_quote(project_id) || ` +
  `',"userId":' || json_quote(user_id) || '}')`;

/** The columns migration 0005 gave PostgreSQL's activities_user_listing beyond its keys, for an index-only scan. */
export const POSTGRES_LISTING_INCLUDE_0005: readonly string[] = ['ended_at', 'project_id', 'billable', 'name'];

/**
 * Activities up to this long need no record in activity_length_bounds (the listing always looks back
 * this far): the migration recorded only the longer ones, as the write path does.
 */
export const ACTIVITY_LENGTH_FLOOR_SECONDS = 86_400;

// The current listing index: `npm run db:listing` (scripts/db-listing.ts) rewrites from here to the end.

/** The latest migration that built activities_user_listing, and what it built: what the databases hold now. */
export const LISTING_INDEX_MIGRATION = '0020_activity_listing_fields';
/** SQLite's entry in the index now: the listing query repeats it byte for byte. */
export const SQLITE_ACTIVITY_ENTRY: string =
  `(json_quote(id) || ':{"id":' || json_quote(id) || ',"name":' || json_quote(name) || ',"billable":' || ` +
  `iif(billable, 'true', 'false') || ',"startedAt":' || json_quote(started_at) || ',"endedAt":' || ` +
  `json_quote(ended_at) || ',"projectId":' || json_quote(project_id) || ',"userId":' || json_quote(user_id) || ` +
  `',"taskId":' || json_quote(task_id) || ',"tagIds":' || tag_ids || '}')`;
/** PostgreSQL's INCLUDE columns of the index now. */
export const POSTGRES_LISTING_INCLUDE: readonly string[] = ['ended_at', 'project_id', 'billable', 'name', 'task_id', 'tag_ids'];
