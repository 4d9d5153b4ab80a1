/*
 * Everything the tests take from src/, in one place: the harness, the factories and the suites
 * import these names from here, never from src/ itself, so when src/ moves its files only this one
 * changes. Re-exports only: no code of its own, and nothing from vitest (the fuzz CLI loads it too).
 */

/* The app, as the server and the CLI build it */
export { buildApp } from '../../src/app.js';
export { loadConfig, supportAddress, type Config } from '../../src/config.js';

/* Stores */
export { BACKSTOP_CHECKPOINT_FRAMES } from '../../src/db/checkpointer.js';
export { LONG_READ_CONNECTIONS, openStore, snapshotReaderOf, type Store } from '../../src/db/database.js';
export { fixedStatement } from '../../src/db/fixed-statement.js';
export { migrateToLatest } from '../../src/db/migrate.js';
export { loadMigrations, migrationFiles } from '../../src/db/migrations/index.js';
export { toDbBool } from '../../src/db/values.js';

/* Record scopes: which rows a reader may read, as SQL (src/db/record-scopes.ts), and the policy's scopes they are given */
export {
  administersProject,
  administersSomeProject,
  isProjectAdminRole,
  memberProjects,
  memberProjectsText,
  membershipConditionsText,
  membershipValues,
  readableRows,
  type ReadableScope,
} from '../../src/db/record-scopes.js';
export { readerScope } from '../../src/domain/policy.js';
export { PROJECT_ADMIN_ROLE } from '../../src/lib/project-roles.js';

/* The rendered listings: the record schemas and the frozen SQLite text they must render to */
export { SQLITE_ACTIVITY_ENTRY } from '../../src/db/frozen/activity-listing.js';
export { renderedEntry, renderedFieldsOf } from '../../src/db/rendered-entries.js';
export { recordOfRow, rowOfRecord } from '../../src/db/record-rows.js';
export { Activity as ActivitySchema } from '../../src/areas/activities/schemas.js';
export { Project as ProjectSchema } from '../../src/areas/projects/schemas.js';
export { User as UserSchema } from '../../src/areas/users/schemas.js';

/* HTTP */
export { Nullable } from '../../src/route-kit/schemas.js';
export { ExpiringCache, IDENTITY_TTL_MS } from '../../src/http/identity-cache.js';
export { jsonObjectOf } from '../../src/route-kit/json-answer.js';
export { othersInFlight } from '../../src/db/giving-way.js';
export { WEB_ROOT } from '../../src/http/web-app.js';
export { redactSecretParameters, redactUrl, type RedactionWork } from '../../src/http/log-redaction.js';
export type { Role } from '../../src/domain/actor.js';
export { holds as holdsPermission, scopesOf as scopesOfPermission, type Permission as PolicyPermission } from '../../src/domain/policy.js';

/* Areas: the data-layer functions the factories use where the API cannot make a state, and the rules some suites test alone */
export { API_KEYS_PER_USER } from '../../src/areas/access/index.js';
export { findOrCreateAccount } from '../../src/areas/access/accounts/account-repository.js';
export { secondFactorChallenge } from '../../src/areas/access/sign-in/sign-in-flow.js';
export { insertApiKey } from '../../src/areas/access/api-keys/api-key-repository.js';
export { insertSession } from '../../src/areas/access/sessions/session-repository.js';
export { hashPassword } from '../../src/areas/access/sign-in/password/password-hashing.js';
export { insertOneTimeToken } from '../../src/areas/access/sign-in/link/one-time-token-repository.js';
export { insertOidcState } from '../../src/areas/access/sign-in/single-sign-on/oidc-repository.js';
export { EXPIRED_ROWS_BATCH, pruneExpiredSignInRows } from '../../src/areas/access/expired-rows-service.js';
export { currentCode } from '../../src/areas/access/sign-in/two-factor/two-factor-rules.js';
export { DETAIL_PIECE } from '../../src/areas/reports/detail-service.js';
export { entriesPageStatement, type SelectionSpec } from '../../src/areas/reports/entries-repository.js';
export { activityListStatement, LIST_PIECE, type ActivityFilter, type ActivityReader } from '../../src/areas/activities/listing-statement.js';
export { listingCounters } from '../../src/areas/activities/listing-repository.js';
export { insertBillingTransaction, insertSubscription } from '../../src/areas/billing/repository.js';
export { deliverPending, enqueueMessage, EXPIRED_BODY, listMessages } from '../../src/areas/mail/index.js';
export { pruneChanges, recordChange, type ChangeType } from '../../src/areas/changes/index.js';
export { createImpersonationRequest } from '../../src/areas/requests/index.js';
export { assertActivityWeekOpen, runTimesheetSchedule, scheduledWorkspaces } from '../../src/areas/timesheets/index.js';
export { createUser } from '../../src/areas/users/repository.js';
export { createWorkspace, releaseRetiredDomain } from '../../src/areas/workspace/index.js';
export { DELIVERIES_PER_RUN, deliverWebhooks, pruneDeliveries, slotsPerWorkspace, startWebhookWorker, workerCounters, RETRY_WINDOW_MS, SECRET_GRACE_MS, verifyWebhookSignature, WEBHOOKS_PER_WORKSPACE, type Resolver } from '../../src/areas/webhooks/index.js';

/* Small helpers */
export { newId } from '../../src/lib/ids.js';
export { sealerOf } from '../../src/lib/sealing.js';
export { API_KEY_PREFIX, hashToken, newToken, ONE_TIME_TOKEN_PREFIX, SESSION_TOKEN_PREFIX } from '../../src/lib/tokens.js';

/* The listing index of GET /activities: its builder and what the migrations froze of it (npm run db:listing, scripts/db-listing.ts) */
export { createListingIndexStatement, LISTING_INDEX, listingIndexOf } from '../../src/db/listing-index.js';
export { POSTGRES_LISTING_INCLUDE, POSTGRES_LISTING_INCLUDE_0005, SQLITE_ACTIVITY_ENTRY_0005 } from '../../src/db/frozen/activity-listing.js';
export type { RenderedField } from '../../src/db/rendered-entries.js';
export type { MigrationModule } from '../../src/db/migrations/index.js';
