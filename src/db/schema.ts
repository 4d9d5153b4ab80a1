import type { ActivityTagsTable } from './tables/activity-tags.js';
import type { ClientsTable } from './tables/clients.js';
import type { ChangeEventsTable, ChangeFeedsTable } from './tables/changes.js';
import type { BillingTransactionsTable, ReceiptsTable, SubscriptionsTable } from './tables/billing.js';
import type { GeofencesTable } from './tables/geofences.js';
import type { ImportEntriesTable, ImportKeysTable, ImportsTable } from './tables/imports.js';
import type { AccountsTable, ApiKeysTable, SessionsTable, UsersTable } from './tables/identity.js';
import type { OrganizationDomainsTable, OrganizationsTable, RetiredDomainsTable } from './tables/organizations.js';
import type { OutboxTable, ReportsTable, UserPreferencesTable } from './tables/people.js';
import type { OidcStatesTable, RecoveryCodesTable, SignInChallengesTable, SignInSettingsTable, TwoFactorSecretsTable } from './tables/sign-in.js';
import type {
  ActivitiesTable,
  ActivityLengthBoundsTable,
  CostRatesTable,
  ProjectMembersTable,
  ProjectsTable,
  RevenueRatesTable,
} from './tables/tracking.js';
import type { TagsTable } from './tables/tags.js';
import type { TasksTable } from './tables/tasks.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from './tables/webhooks.js';
import type { OneTimeTokensTable, RequestsTable, TimesheetLocksTable, TimesheetRemindersTable } from './tables/workflows.js';

/** The Kysely view of every table; each area's tables are typed in tables/. */
export interface Database {
  organizations: OrganizationsTable;
  organization_domains: OrganizationDomainsTable;
  retired_domains: RetiredDomainsTable;
  accounts: AccountsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  activities: ActivitiesTable;
  activity_length_bounds: ActivityLengthBoundsTable;
  revenue_rates: RevenueRatesTable;
  cost_rates: CostRatesTable;
  user_preferences: UserPreferencesTable;
  reports: ReportsTable;
  outbox: OutboxTable;
  subscriptions: SubscriptionsTable;
  billing_transactions: BillingTransactionsTable;
  receipts: ReceiptsTable;
  geofences: GeofencesTable;
  requests: RequestsTable;
  timesheet_locks: TimesheetLocksTable;
  timesheet_reminders: TimesheetRemindersTable;
  one_time_tokens: OneTimeTokensTable;
  change_feeds: ChangeFeedsTable;
  change_events: ChangeEventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  two_factor_secrets: TwoFactorSecretsTable;
  recovery_codes: RecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  sign_in_settings: SignInSettingsTable;
  oidc_states: OidcStatesTable;
  tags: TagsTable;
  clients: ClientsTable;
  tasks: TasksTable;
  activity_tags: ActivityTagsTable;
  imports: ImportsTable;
  import_entries: ImportEntriesTable;
  import_keys: ImportKeysTable;
}
