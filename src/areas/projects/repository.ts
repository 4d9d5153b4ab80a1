import type { Buffer } from 'node:buffer';
import { nameKey } from '../../lib/names.js';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
import { fixedStatement } from '../../db/fixed-statement.js';
import { membershipConditionsText, membershipValues, type Memberships } from '../../db/record-scopes.js';
import { renderedEntry, renderedFieldsOf, renderedListStatement } from '../../db/rendered-entries.js';
import type { ProjectMembersTable, ProjectsTable } from '../../db/tables/tracking.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../db/values.js';
import type { Role } from '../../domain/actor.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { Project, type ProjectMember } from './schemas.js';

type ProjectRow = Selectable<ProjectsTable>;
type MemberRow = Selectable<ProjectMembersTable>;

/**
 * The key of the case-insensitive name uniqueness (the `projects_name_unique` constraint): trimmed,
 * NFC-normalized, then full case folding approximated by upper- then lower-casing ("Straße" = "STRASSE").
 */
const projectNameKey = nameKey;

/** A project as one user relates to it: their unarchived membership's id and project role, or null. */
export interface ProjectWithMembership {
  project: Project;
  memberId: string | null;
  memberRole: string | null;
}

/**
 * A project of the workspace with the given user's unarchived membership of it, in one query
 * (primary key of projects, then the project_members_one_per_user unique index).
 */
export async function findProjectWithMembership(
  db: Db,
  organizationId: string,
  projectId: string,
  userId: string,
): Promise<ProjectWithMembership | undefined> {
  const row = (await FIND_PROJECT_WITH_MEMBERSHIP(db, projectWithMembershipValues(organizationId, projectId, userId)))[0];
  return row && { project: toProject(row), memberId: row.member_id, memberRole: row.member_role };
}

/** The shape of one user's unarchived memberships (db/record-scopes.ts), for the texts written once below. */
const MEMBERSHIPS: Memberships = { organizationId: '', userId: '', administered: false };
const PLACEHOLDER = () => '?';

/** A project and one user's unarchived membership of it; its values are projectWithMembershipValues'. */
const FROM_PROJECT_WITH_MEMBERSHIP =
  ` from projects left join project_members on project_members.project_id = projects.id and ${membershipConditionsText(MEMBERSHIPS, PLACEHOLDER)}` +
  ' where projects.id = ? and projects.organization_id = ?';

function projectWithMembershipValues(organizationId: string, projectId: string, userId: string): unknown[] {
  const values = membershipValues({ organizationId, userId, administered: false });
  values.push(projectId, organizationId);
  return values;
}

const FIND_PROJECT_WITH_MEMBERSHIP = fixedStatement<ProjectRow & { member_id: string | null; member_role: string | null }>(
  `select projects.*, project_members.id as member_id, project_members.role as member_role${FROM_PROJECT_WITH_MEMBERSHIP}`,
);

/** What booking time on a project needs: the project's flags and the booking user's unarchived membership. */
export interface ProjectForBooking {
  id: string;
  archived: boolean;
  billable: boolean;
  /** Whether the booking user is an unarchived member of it. */
  member: boolean;
}

/**
 * What booking time on a project needs, read as findProjectWithMembership reads it: few columns,
 * because every write of time reads it and building a row costs per column. Called in the booking's
 * transaction: on PostgreSQL the project row is held with a key-share lock (the lock the activity's
 * foreign key takes anyway), so the project cannot be deleted between this check and the insert: its
 * deletion waits for the booking, or came first and the project is not found (422 for the booking).
 */
export async function selectProjectForBooking(
  db: Db,
  organizationId: string,
  projectId: string,
  userId: string,
): Promise<ProjectForBooking | undefined> {
  const find = dialectOf(db) === 'postgres' ? FIND_PROJECT_FOR_BOOKING_HELD : FIND_PROJECT_FOR_BOOKING;
  const row = (await find(db, projectWithMembershipValues(organizationId, projectId, userId)))[0];
  return row && { id: row.id, archived: fromDbBool(row.archived), billable: fromDbBool(row.billable), member: row.member_id !== null };
}

type BookingRow = Pick<ProjectRow, 'id' | 'archived' | 'billable'> & { member_id: string | null };
const FIND_PROJECT_FOR_BOOKING = fixedStatement<BookingRow>(
  `select projects.id, projects.archived, projects.billable, project_members.id as member_id${FROM_PROJECT_WITH_MEMBERSHIP}`,
);
// SQLite runs each transaction alone (lockRowForWrite): only PostgreSQL needs the lock.
const FIND_PROJECT_FOR_BOOKING_HELD = fixedStatement<BookingRow>(
  `select projects.id, projects.archived, projects.billable, project_members.id as member_id${FROM_PROJECT_WITH_MEMBERSHIP} for key share of projects`,
);

/** A project as GET /projects lists it: the Project schema's fields (as toProject maps them), each read from its column. */
const PROJECT_FIELDS = renderedFieldsOf(Project, {
  id: 'projects.id',
  name: 'projects.name',
  archived: 'projects.archived',
  billable: 'projects.billable',
  avatar: 'projects.avatar',
  clientId: 'projects.client_id',
  color: 'projects.color',
  notes: 'projects.notes',
});

const listedProjects = (dialect: 'sqlite' | 'postgres', from: string) =>
  fixedStatement<{ entries: Buffer | string | null }>(
    renderedListStatement(dialect, renderedEntry(dialect, 'projects.id', PROJECT_FIELDS), from, 'projects.created_at, projects.id'),
  );
const ALL_PROJECTS = 'from projects where projects.organization_id = ?';
const MEMBER_PROJECTS =
  'from projects inner join project_members on project_members.project_id = projects.id' +
  ` where projects.organization_id = ? and ${membershipConditionsText(MEMBERSHIPS, PLACEHOLDER)}`;
const LIST_PROJECTS = {
  all: { sqlite: listedProjects('sqlite', ALL_PROJECTS), postgres: listedProjects('postgres', ALL_PROJECTS) },
  member: { sqlite: listedProjects('sqlite', MEMBER_PROJECTS), postgres: listedProjects('postgres', MEMBER_PROJECTS) },
};

/**
 * listProjects rendered by the database as the entries of GET /projects (`"<id>":{…},…`, in creation
 * order), or null when there are none: no row object nor serializer runs per project.
 */
export async function listProjectsJson(db: Db, organizationId: string, memberUserId?: string): Promise<Buffer | string | null> {
  const dialect = dialectOf(db);
  const [row] =
    memberUserId === undefined
      ? await LIST_PROJECTS.all[dialect](db, [organizationId])
      : await LIST_PROJECTS.member[dialect](db, [organizationId, ...membershipValues({ organizationId, userId: memberUserId, administered: false })]);
  return row?.entries ?? null;
}

export async function findProject(db: Db, organizationId: string, projectId: string): Promise<Project | undefined> {
  const row = await db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row && toProject(row);
}

/** Whether the workspace has the project. */
export async function selectProjectExists(db: Db, organizationId: string, projectId: string): Promise<boolean> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

/** What a new project holds besides its id, its workspace and its timestamps (it starts unarchived). */
export interface ProjectValues {
  name: string;
  billable: boolean;
  avatar: string | null;
  notes: string | null;
  clientId: string | null;
  color: string;
}

/** How many projects the workspace has (the default color of a new one follows it). */
export async function countProjects(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Stores a new project; answers its id. */
export async function insertProject(db: Db, organizationId: string, values: ProjectValues, now: string): Promise<string> {
  const id = newId();
  await db
    .insertInto('projects')
    .values({
      id,
      organization_id: organizationId,
      name: values.name,
      name_key: projectNameKey(values.name),
      archived: toDbBool(false),
      billable: toDbBool(values.billable),
      avatar: values.avatar,
      notes: values.notes,
      client_id: values.clientId,
      color: values.color,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** What a project's PUT may change. */
export type ProjectChanges = Partial<ProjectValues & { archived: boolean }>;

export async function updateProject(db: Db, organizationId: string, projectId: string, changes: ProjectChanges): Promise<void> {
  const set: Updateable<ProjectsTable> = {};
  if (changes.name !== undefined) {
    set.name = changes.name;
    set.name_key = projectNameKey(changes.name);
  }
  if (changes.notes !== undefined) set.notes = changes.notes;
  if (changes.billable !== undefined) set.billable = toDbBool(changes.billable);
  if (changes.archived !== undefined) set.archived = toDbBool(changes.archived);
  if (changes.avatar !== undefined) set.avatar = changes.avatar;
  if (changes.clientId !== undefined) set.client_id = changes.clientId;
  if (changes.color !== undefined) set.color = changes.color;
  await db
    .updateTable('projects')
    .set({ ...set, updated_at: nowIso() })
    .where('id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .execute();
}

/**
 * Removes a project. The foreign keys do the rest in the same statement: its members and their
 * revenue rates are deleted (on delete cascade), its activities stay with project_id null (on delete
 * set null), so time is never lost with a project.
 */
export async function deleteProject(db: Db, organizationId: string, projectId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('projects')
    .where('id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listMembers(db: Db, organizationId: string, projectId: string): Promise<ProjectMember[]> {
  const rows = await db
    .selectFrom('project_members')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toMember);
}

export async function selectMember(
  db: Db,
  organizationId: string,
  projectId: string,
  memberId: string,
): Promise<ProjectMember | undefined> {
  const row = await db
    .selectFrom('project_members')
    .selectAll()
    .where('id', '=', memberId)
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row && toMember(row);
}

export interface NewMember {
  organizationId: string;
  projectId: string;
  userId: string;
  role: Role;
  assignedBy: string;
  title?: string | null;
  notes?: string | null;
  tags?: string[] | null;
}

/** The row of a new, unarchived membership: every way a user joins a project builds it here. */
function newMemberRow(member: NewMember, id: string, now: string): Insertable<ProjectMembersTable> {
  return {
    id,
    organization_id: member.organizationId,
    project_id: member.projectId,
    user_id: member.userId,
    role: member.role,
    archived: toDbBool(false),
    assigned_by: member.assignedBy,
    title: member.title ?? null,
    notes: member.notes ?? null,
    tags: member.tags ? toJson(member.tags) : null,
    created_at: now,
    updated_at: now,
  };
}

/** Stores a new membership; answers its id. A second membership of the user fails project_members_one_per_user. */
export async function insertMember(db: Db, member: NewMember, now: string): Promise<string> {
  const id = newId();
  await db.insertInto('project_members').values(newMemberRow(member, id, now)).execute();
  return id;
}

/**
 * Inserts a membership unless the user already has one in the project (archived or not): ON CONFLICT
 * DO NOTHING on project_members_one_per_user, so a concurrent addition never fails the transaction.
 * The new membership's id; undefined when there already was one.
 */
export async function insertMemberUnlessPresent(db: Db, member: NewMember, now: string): Promise<string | undefined> {
  const inserted = await db
    .insertInto('project_members')
    .values(newMemberRow(member, newId(), now))
    .onConflict((oc) => oc.columns(['project_id', 'user_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

/** What a member's PUT may change. */
export interface MemberChanges {
  role?: Role;
  title?: string;
  notes?: string;
  tags?: string[] | null;
  archived?: boolean;
}

export async function updateMember(db: Db, organizationId: string, memberId: string, changes: MemberChanges): Promise<void> {
  const set: Updateable<ProjectMembersTable> = {};
  if (changes.role !== undefined) set.role = changes.role;
  if (changes.title !== undefined) set.title = changes.title;
  if (changes.notes !== undefined) set.notes = changes.notes;
  if (changes.tags !== undefined) set.tags = changes.tags === null ? null : toJson(changes.tags);
  if (changes.archived !== undefined) set.archived = toDbBool(changes.archived);
  await db
    .updateTable('project_members')
    .set({ ...set, updated_at: nowIso() })
    .where('id', '=', memberId)
    .where('organization_id', '=', organizationId)
    .execute();
}

/** Removes a member; their revenue rates go with them (on delete cascade). */
export async function deleteMember(db: Db, organizationId: string, projectId: string, memberId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('project_members')
    .where('id', '=', memberId)
    .where('project_id', '=', projectId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A user of the workspace, to check a new member against (exists here, not archived). */
export interface WorkspaceUser {
  id: string;
  role: string;
  archived: boolean;
}

export async function findWorkspaceUser(db: Db, organizationId: string, userId: string): Promise<WorkspaceUser | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'role', 'archived'])
    .where('id', '=', userId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row && { id: row.id, role: row.role, archived: fromDbBool(row.archived) };
}

function toProject(row: ProjectRow): Project {
  const project: Project = {
    id: row.id,
    name: row.name,
    archived: fromDbBool(row.archived),
    billable: fromDbBool(row.billable),
    avatar: row.avatar,
    clientId: row.client_id,
    color: row.color,
  };
  if (row.notes !== null) project.notes = row.notes;
  return project;
}

function toMember(row: MemberRow): ProjectMember {
  const member: ProjectMember = {
    id: row.id,
    projectId: row.project_id,
    userId: row.user_id,
    role: row.role as ProjectMember['role'],
    archived: fromDbBool(row.archived),
    tags: fromJson<string[]>(row.tags),
  };
  if (row.assigned_by !== null) member.assignedBy = row.assigned_by;
  if (row.notes !== null) member.notes = row.notes;
  if (row.title !== null) member.title = row.title;
  return member;
}

/**
 * Projects an import brings, with the ids its plan gave them (docs/rules.md §6 Imports): not billable,
 * each the palette's next color after the `existing` projects of the workspace.
 */
export async function insertProjectRows(
  db: Db,
  organizationId: string,
  projects: ReadonlyArray<{ id: string; name: string; clientId: string | null; color: string }>,
): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < projects.length; i += 500) {
    await db
      .insertInto('projects')
      .values(
        projects.slice(i, i + 500).map((project) => ({
          id: project.id,
          organization_id: organizationId,
          name: project.name,
          name_key: projectNameKey(project.name),
          archived: toDbBool(false),
          billable: toDbBool(false),
          avatar: null,
          notes: null,
          client_id: project.clientId,
          color: project.color,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

/** Memberships an import brings (project role User), with the ids its plan gave them. */
export async function insertMemberRows(db: Db, organizationId: string, members: ReadonlyArray<{ id: string; projectId: string; userId: string }>, assignedBy: string): Promise<void> {
  const now = nowIso();
  for (let i = 0; i < members.length; i += 500) {
    await db
      .insertInto('project_members')
      .values(members.slice(i, i + 500).map((member) => newMemberRow({ organizationId, projectId: member.projectId, userId: member.userId, role: 'User', assignedBy }, member.id, now)))
      .execute();
  }
}
