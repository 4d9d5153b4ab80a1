import type { AccountsTable, ApiKeysTable, SessionsTable, UsersTable } from './tables/identity.js';
import type { OrganizationDomainsTable, OrganizationsTable } from './tables/organizations.js';

/** The Kysely view of every table; each area's tables are typed in tables/. */
export interface Database {
  organizations: OrganizationsTable;
  organization_domains: OrganizationDomainsTable;
  accounts: AccountsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
}
