import type { Actor, Role, TokenKind } from './actor.js';

/**
 * Who may do what (docs/rules.md §5), in one table: each permission maps every role that holds it to
 * the records it reaches. Routes name the permission they need (`config: { permission }`, checked
 * before the body: a role that holds it in no scope gets 403); services ask `permits` about one
 * record and listings ask `readerScope` for the rows a reader sees. Read this table beside
 * test/security/authorization-matrix.ts: the two say the same thing.
 *
 * Scopes:
 * - `all`: every record of the workspace.
 * - `own`: records that belong to the actor (their activities, user, preferences, cost rates,
 *   reports, requests, API keys).
 * - `member`: projects the actor is an unarchived member of, and those projects' members and clients.
 * - `administered`: records of projects the actor administers (an unarchived member with the
 *   project role Administrator: a "project admin").
 */
export type Scope = 'all' | 'own' | 'member' | 'administered';

const everyone = { Administrator: ['all'], User: ['all'] } as const;
const admins = { Administrator: ['all'] } as const;
const ownOnly = { Administrator: ['own'], User: ['own'] } as const;

const POLICY = {
  'organization:read': everyone,
  'organization:update': admins,
  'organization:delete': admins,
  /** Listing every workspace where the caller's account has a user (GET /organizations); without it, only this one. */
  'account:workspaces': everyone,
  'api-keys:manage': ownOnly,
  /** Creating or revoking one's own API keys: credentials that outlive the session. */
  'api-keys:write': ownOnly,
  /** Ending the session in use (POST /auth/sign-out). */
  'sessions:sign-out': ownOnly,
  /** Listing and ending the sessions of one's account (other browsers and devices). */
  'sessions:manage': ownOnly,
  /** Setting or changing one's own password. */
  'password:write': ownOnly,
  /**
   * Giving a role: inviting an Administrator, setting a user's role, making a project member its
   * Administrator, resolving a project role-change request.
   */
  'roles:grant': admins,
  /** Enrolling, confirming, disabling and reading one's own two-factor authentication (it belongs to the account). */
  'two-factor:manage': ownOnly,
  /** The workspace's sign-in settings: whether 2FA is required, the domains single sign-on lets in. */
  'sign-in-settings:manage': admins,
  /** Issuing a sign-in for someone else: resolving an impersonation request (it mails a support sign-in link). */
  'sign-ins:issue': admins,
  'projects:read': { Administrator: ['all'], User: ['member'] },
  'projects:create': admins,
  'projects:update': { Administrator: ['all'], User: ['administered'] },
  'projects:delete': admins,
  'members:read': { Administrator: ['all'], User: ['member'] },
  'members:write': { Administrator: ['all'], User: ['administered'] },
  'rates:revenue': { Administrator: ['all'], User: ['administered'] },
  'rates:cost:read': { Administrator: ['all'], User: ['own'] },
  'rates:cost:write': admins,
  'activities:read': { Administrator: ['all'], User: ['own', 'administered'] },
  'activities:write': { Administrator: ['all'], User: ['own'] },
  /** Booking time on a project: an administrator any unarchived project, a User those they are a member of. */
  'projects:book': { Administrator: ['all'], User: ['member'] },
  /** Writing time in a locked timesheet week (a User is held by the lock). */
  'timesheets:write-locked': admins,
  'users:read': everyone,
  /** A User changes only their own name, avatar, phone and title (role and archived: `users:manage`). */
  'users:update': { Administrator: ['all'], User: ['own'] },
  'users:manage': admins,
  'users:invite': admins,
  'users:delete': admins,
  'preferences:manage': ownOnly,
  'reports:manage': ownOnly,
  /**
   * Revenue in a report (docs/rules.md §6 Reports, "Who sees money"): an administrator that of every
   * project, a project admin that of the projects they administer; other billable time is withheld.
   */
  'reports:revenue': { Administrator: ['all'], User: ['administered'] },
  /** Cost and profit in a report: they take the cost rates of every user. */
  'reports:cost': admins,
  'requests:read': { Administrator: ['all'], User: ['own'] },
  'requests:create': ownOnly,
  'requests:resolve': admins,
  'timesheets:manage': admins,
  'billing:manage': admins,
  'geofences:read': everyone,
  'geofences:write': admins,
  /** Tags (docs/rules.md §6 Tags): every user reads them all and may create one; renaming, archiving and deleting are for administrators. */
  'tags:read': everyone,
  'tags:create': everyone,
  'tags:manage': admins,
  /** Reading the change feed: a User sees only the events of records they may read (docs/rules.md §6 Change feed). */
  'changes:read': everyone,
  /** Webhooks: their URLs, secrets and deliveries (every event of the workspace leaves through them). */
  'webhooks:manage': admins,
  /** Clients: a User reads the clients of the projects they are an unarchived member of (docs/rules.md §6 Clients). */
  'clients:read': { Administrator: ['all'], User: ['member'] },
  'clients:write': admins,
  /** Tasks of a project (docs/rules.md §6 Tasks): read as the project is; written by administrators and the project's admins. */
  'tasks:read': { Administrator: ['all'], User: ['member'] },
  'tasks:write': { Administrator: ['all'], User: ['administered'] },
  /** Imports of another tool's export (docs/rules.md §6 Imports): they add people, projects and time to the whole workspace. */
  'imports:manage': admins,
} as const satisfies Record<string, Partial<Record<Role, readonly Scope[]>>>;

export type Permission = keyof typeof POLICY;

type ActorRole = Pick<Actor, 'role' | 'userId'>;

const NONE: readonly Scope[] = [];

/** The scopes in which the role holds the permission (none: it does not hold it). */
export function scopesOf(role: Role, permission: Permission): readonly Scope[] {
  return (POLICY[permission] as Partial<Record<Role, readonly Scope[]>>)[role] ?? NONE;
}

/**
 * What a support session (an impersonation: `tokenKind` 'support', docs/rules.md §5 Support
 * impersonation) never holds, whatever the role it acts with: it may look and fix, for one hour, in
 * the one workspace it is bound to, but not create or change credentials (API keys, sign-ins), grant
 * a role, delete the workspace, or see the account's other workspaces.
 */
const WITHHELD_FROM_SUPPORT: ReadonlySet<Permission> = new Set<Permission>([
  'api-keys:write',
  'sessions:manage',
  'password:write',
  'two-factor:manage',
  'sign-in-settings:manage',
  'roles:grant',
  'sign-ins:issue',
  'organization:delete',
  'account:workspaces',
]);

/**
 * What a person signed in with a session may still do in a workspace that requires two-factor
 * authentication while their account has none (docs/rules.md §8 Two-factor codes): enrol, see who
 * they are and which workspace this is, sign out and end their sessions. Everything else is 403 `two-factor-required`.
 */
export const ALLOWED_BEFORE_ENROLMENT: ReadonlySet<Permission> = new Set<Permission>([
  'two-factor:manage',
  'organization:read',
  'sessions:sign-out',
  'sessions:manage',
]);

/** The 403 detail for a permission a support session does not hold. */
export const SUPPORT_SESSION_DENIED = 'A support session cannot do this: it may not create or change credentials, grant roles, delete the workspace or see other workspaces.';

/** Whether a token of this kind may hold the permission at all (a support session is denied WITHHELD_FROM_SUPPORT). */
export const tokenKindAllows = (tokenKind: TokenKind | undefined, permission: Permission): boolean =>
  tokenKind !== 'support' || !WITHHELD_FROM_SUPPORT.has(permission);

/**
 * Whether the role holds the permission in any scope, with a token of this kind: the check a route's
 * `permission` makes (given the actor's token kind). Without a token kind, the role alone answers.
 */
export const holds = (role: Role, permission: Permission, tokenKind?: TokenKind): boolean =>
  scopesOf(role, permission).length > 0 && tokenKindAllows(tokenKind, permission);

/** Whether the actor, with its role and token kind, holds the permission in any scope. */
export const actorHolds = (actor: Pick<Actor, 'role' | 'tokenKind'>, permission: Permission): boolean =>
  holds(actor.role, permission, actor.tokenKind);

/** Whether the actor's role reaches every record of the workspace under the permission. */
export const reachesAll = (actor: Pick<Actor, 'role'>, permission: Permission): boolean =>
  scopesOf(actor.role, permission).includes('all');

/** How one record relates to the actor, as far as a scope needs to know. */
export interface RecordFacts {
  /** The user the record belongs to (an activity's user, a cost rate's user, a request's creator…). */
  ownerId?: string | null;
  /**
   * The actor's relation to the record's project: `admin` (project admin), `member`, or null. Left
   * out when not looked up: ask needsProjectRelation first, so a record the actor owns costs no lookup.
   */
  projectRelation?: ProjectRelation;
}

export type ProjectRelation = 'admin' | 'member' | null;

/** Whether the actor may act on the record under the permission. */
export function permits(actor: ActorRole, permission: Permission, record: RecordFacts): boolean {
  const scopes = scopesOf(actor.role, permission);
  if (scopes.includes('all')) return true;
  if (scopes.includes('own') && record.ownerId != null && record.ownerId === actor.userId) return true;
  if (record.projectRelation === undefined) return false;
  return allowsRelation(scopes, record.projectRelation);
}

/**
 * Whether the answer of permits for this record would depend on the actor's relation to its project:
 * the owner alone does not decide, and a project scope could still allow it.
 */
export function needsProjectRelation(actor: ActorRole, permission: Permission, record: { ownerId?: string | null }): boolean {
  if (permits(actor, permission, record)) return false;
  return scopesOf(actor.role, permission).some((scope) => scope === 'member' || scope === 'administered');
}

function allowsRelation(scopes: readonly Scope[], relation: ProjectRelation): boolean {
  if (relation === 'admin') return scopes.includes('member') || scopes.includes('administered');
  return relation === 'member' && scopes.includes('member');
}

/**
 * The rows a listing shows the actor: every row of the workspace, or only those the actor's scopes
 * reach (the listing's repository turns `scopes` into its conditions).
 */
export type ReaderScope = { all: true } | { all: false; userId: string; scopes: readonly Scope[] };

export function readerScope(actor: ActorRole, permission: Permission): ReaderScope {
  const scopes = scopesOf(actor.role, permission);
  return scopes.includes('all') ? { all: true } : { all: false, userId: actor.userId, scopes };
}
