/*
 * What migration 0005 (activity_listing) wrote into users' databases and the listing must keep
 * agreeing with. Never edit these: a change needs a new migration that rebuilds what they froze.
 */

/**
 * One listed activity as GET /activities renders it, `"<id>":{"id":…,"userId":…}`, rendered by SQLite:
 * the same bytes as the service's serializer gives for the Activity schema (keys in schema order,
 * JSON string escapes as JSON.stringify makes them, booleans true/false, null for a running timer's
 * endedAt and a missing project). The index activities_user_listing stores it, so a user's listing
 * is read from that index alone; a query must use this very expression for SQLite to match it.
 */
export const SQLITE_ACTIVITY_ENTRY =
  `(json_quote(id) || ':{"id":' || json_quote(id) || ',"name":' || json_quote(name) || ` +
  `',"billable":' || iif(billable, 'true', 'false') || ',"startedAt":' || json_quote(started_at) || ` +
  `',"endedAt":' || json_quote(ended_at) || ',"projectId":' || json_quote(project_id) || ` +
  `',"userId":' || json_quote(user_id) || '}')`;

/**
 * Activities up to this long need no record in activity_length_bounds (the listing always looks back
 * this far): the migration recorded only the longer ones, as the write path does.
 */
export const ACTIVITY_LENGTH_FLOOR_SECONDS = 86_400;
