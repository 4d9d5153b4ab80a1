import type { Updateable } from 'kysely';
import type { Buffer } from 'node:buffer';
import { dialectOf, type Db, type Trx } from '../../db/database.js';
import { fixedStatement } from '../../db/fixed-statement.js';
import { renderedEntry, renderedFieldsOf, renderedListStatement } from '../../db/rendered-entries.js';
import type { UsersTable } from '../../db/tables/identity.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../db/values.js';
import type { Role } from '../../domain/actor.js';
import { normalizeEmail } from '../../lib/email.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import type { UserChanges } from './rules.js';
import { User } from './schemas.js';

/** A user row with its account email, as the database answers it. */
interface UserRow {
  id: string;
  email: string;
  role: string;
  archived: boolean | number;
  name: string | null;
  avatar: string | null;
  phone: string | null;
  title: string | null;
  joined_at: string | null;
}

const userColumns = [
  'users.id',
  'accounts.email',
  'users.role',
  'users.archived',
  'users.name',
  'users.avatar',
  'users.phone',
  'users.title',
  'users.joined_at',
] as const;

function selectUsers(db: Db, organizationId: string) {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(userColumns)
    .where('users.organization_id', '=', organizationId);
}

/** A user as GET /users lists it: the User schema's fields (as toUser maps them), each read from its column. */
const USER_FIELDS = renderedFieldsOf(User, {
  id: 'users.id',
  email: 'accounts.email',
  role: 'users.role',
  archived: 'users.archived',
  name: 'users.name',
  avatar: 'users.avatar',
  phone: 'users.phone',
  title: 'users.title',
  joinedAt: 'users.joined_at',
});

const listedUsers = (dialect: 'sqlite' | 'postgres') =>
  fixedStatement<{ entries: Buffer | string | null }>(
    renderedListStatement(
      dialect,
      renderedEntry(dialect, 'users.id', USER_FIELDS),
      'from users inner join accounts on accounts.id = users.account_id where users.organization_id = ?',
      'users.created_at, users.id',
    ),
  );
const LIST_USERS = { sqlite: listedUsers('sqlite'), postgres: listedUsers('postgres') };

/**
 * The workspace directory rendered by the database as the entries of GET /users (`"<id>":{…},…`, in
 * creation order), or null when there are none: no row object nor serializer runs per user.
 */
export async function listUsersJson(db: Db, organizationId: string): Promise<Buffer | string | null> {
  const [row] = await LIST_USERS[dialectOf(db)](db, [organizationId]);
  return row?.entries ?? null;
}

export async function findUser(db: Db, organizationId: string, userId: string): Promise<User | undefined> {
  const row = await selectUsers(db, organizationId).where('users.id', '=', userId).executeTakeFirst();
  return row && toUser(row);
}

export async function findUserByAccount(db: Db, organizationId: string, accountId: string): Promise<User | undefined> {
  const row = await selectUsers(db, organizationId).where('users.account_id', '=', accountId).executeTakeFirst();
  return row && toUser(row);
}

/** Unarchived administrators of the workspace other than one user. */
export async function countOtherActiveAdmins(db: Db, organizationId: string, exceptUserId: string): Promise<number> {
  const { count } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'Administrator')
    .where('archived', '=', toDbBool(false))
    .where('id', '!=', exceptUserId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function updateUser(db: Db, userId: string, changes: UserChanges): Promise<void> {
  const set: Updateable<UsersTable> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.avatar !== undefined) set.avatar = changes.avatar;
  if (changes.phone !== undefined) set.phone = changes.phone;
  if (changes.title !== undefined) set.title = changes.title;
  if (changes.role !== undefined) set.role = changes.role;
  if (changes.archived !== undefined) set.archived = toDbBool(changes.archived);
  if (Object.keys(set).length === 0) return;
  await db.updateTable('users').set(set).where('id', '=', userId).execute();
}

/**
 * Removes a user; foreign keys cascade to everything that is theirs in the workspace (activities,
 * memberships, rates, reports, preferences, API keys, sessions acting as them, and the tables of
 * later areas that reference users with ON DELETE CASCADE). The account stays.
 */
export async function deleteUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/** The API record: name is left out when the user has none. */
function toUser(row: UserRow): User {
  const user: User = {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    archived: fromDbBool(row.archived),
    avatar: row.avatar,
    phone: row.phone,
    title: row.title,
    joinedAt: row.joined_at,
  };
  if (row.name !== null) user.name = row.name;
  return user;
}

/* Preferences: one JSON document per user, absent until first written. */

export async function readPreferencesDocument(db: Db, userId: string): Promise<Record<string, unknown>> {
  const row = await db.selectFrom('user_preferences').select('document').where('user_id', '=', userId).executeTakeFirst();
  return fromJson<Record<string, unknown>>(row?.document ?? null) ?? {};
}

/** Writes the whole document; call under lockRowForWrite on the user row, so merges never lose an update. */
export async function writePreferencesDocument(trx: Trx, userId: string, document: Record<string, unknown>): Promise<void> {
  const now = nowIso();
  const updated = await trx
    .updateTable('user_preferences')
    .set({ document: toJson(document), updated_at: now })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await trx.insertInto('user_preferences').values({ user_id: userId, document: toJson(document), updated_at: now }).execute();
  }
}

export interface NewUser {
  organizationId: string;
  accountId: string;
  role: Role;
  name?: string | null;
  title?: string | null;
  /** Set for a person who is signing in as they join (docs/rules.md §6 Users); an invited user has none. */
  joinedAt?: string | null;
}

/** Adds an account to a workspace as an unarchived user; answers the new user's id. */
export async function createUser(db: Db, user: NewUser): Promise<string> {
  const id = newId();
  await db
    .insertInto('users')
    .values({
      id,
      organization_id: user.organizationId,
      account_id: user.accountId,
      role: user.role,
      archived: toDbBool(false),
      name: user.name ?? null,
      avatar: null,
      phone: null,
      title: user.title ?? null,
      created_at: nowIso(),
      joined_at: user.joinedAt ?? null,
    })
    .execute();
  return id;
}

/**
 * Marks the user of an account in a workspace joined, now, unless they are already: answers the
 * user's id when this call joined them, else undefined.
 */
export async function markJoined(db: Db, organizationId: string, accountId: string): Promise<string | undefined> {
  const row = await db
    .updateTable('users')
    .set({ joined_at: nowIso() })
    .where('organization_id', '=', organizationId)
    .where('account_id', '=', accountId)
    .where('joined_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The user of an email in a workspace, by id, and whether they are archived. */
export async function findUserIdByEmail(db: Db, organizationId: string, email: string): Promise<{ id: string; archived: boolean } | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'users.archived'])
    .where('users.organization_id', '=', organizationId)
    .where('accounts.email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row && { id: row.id, archived: fromDbBool(row.archived) };
}

/**
 * The workspace's display name, for the invitation mail. Read here rather than through the
 * workspace area's face, which itself creates users through this area's: the two faces would import
 * each other.
 */
export async function workspaceNameOf(db: Db, organizationId: string): Promise<string> {
  const row = await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirstOrThrow();
  return row.name;
}

/** Users an import brings (role User, invited: joined_at null), with the ids its plan gave them (docs/rules.md §6 Imports). */
export async function insertUserRows(db: Db, organizationId: string, users: ReadonlyArray<{ id: string; accountId: string; name: string | null }>): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < users.length; i += 500) {
    await db
      .insertInto('users')
      .values(
        users.slice(i, i + 500).map((user) => ({
          id: user.id,
          organization_id: organizationId,
          account_id: user.accountId,
          role: 'User',
          archived: toDbBool(false),
          name: user.name,
          avatar: null,
          phone: null,
          title: null,
          created_at: now,
          joined_at: null,
        })),
      )
      .execute();
  }
}
