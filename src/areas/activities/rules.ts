import type { Role } from '../../domain/actor.js';
import { conflict, forbidden, invalid } from '../../domain/errors.js';
import { reachesAll } from '../../domain/policy.js';
import { toUtcIso } from '../../lib/time.js';
import { Activity, ActivityCreate, MOST_TAGS, type ActivityUpdate } from './schemas.js';

/** An instant from the API in canonical UTC form, or 422 at the pointer. */
export function instantOf(text: string, pointer: string): string {
  const instant = toUtcIso(text);
  if (instant === null) throw invalid(pointer, 'must be an ISO 8601 date-time with an offset (Z or ±hh:mm)');
  return instant;
}

/**
 * A query-string instant: as instantOf, reading a space before a trailing `hh:mm` as the `+` it was
 * before form decoding turned it into one (`?from=2026-07-04T10:00:00+02:00` sent unencoded).
 */
export function queryInstantOf(text: string, pointer: string): string {
  return instantOf(text.replace(/ (\d{2}:\d{2})$/, '+$1'), pointer);
}

/** The fields of an activity that rules of their own set (its owner, name, times, billable, project, task and tags). */
const RULED_FIELDS = ['id', 'userId', 'name', 'billable', 'startedAt', 'endedAt', 'projectId', 'taskId', 'tagIds'] as const;

/**
 * The other fields of an activity, the plain ones: written as the body gives them, with no rule
 * beyond their schema, and null when a new activity's body leaves one out (docs/architecture.md
 * "Add a field"). A field with a rule, or one that may not be null, joins RULED_FIELDS and gets its
 * rule here.
 */
type PlainFields = Omit<Activity, (typeof RULED_FIELDS)[number]>;
const PLAIN_KEYS = Object.keys(ActivityCreate.properties).filter(
  (key): key is keyof PlainFields & string => key in Activity.properties && !(RULED_FIELDS as readonly string[]).includes(key),
);

/** Compile-time: a plain field that may not be null would have no value when the body leaves it out. */
type NotNullable<T> = { [K in keyof T]-?: null extends T[K] ? never : K }[keyof T];
const _plainFieldsAdmitNull: [NotNullable<PlainFields>] extends [never] ? true : never = true;

/** The plain fields of a new activity: each as the body gives it, or null. */
export function plainFieldsOfNew(body: ActivityCreate): PlainFields {
  const given: Readonly<Record<string, unknown>> = body;
  return Object.fromEntries(PLAIN_KEYS.map((key) => [key, given[key] ?? null])) as PlainFields;
}

/** The plain fields an update body changes: those it holds. */
export function plainChangesOf(body: ActivityUpdate): Partial<PlainFields> {
  const given: Readonly<Record<string, unknown>> = body;
  return Object.fromEntries(PLAIN_KEYS.filter((key) => given[key] !== undefined).map((key) => [key, given[key]])) as Partial<PlainFields>;
}

export function nameOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw invalid('/body/name', 'must not be blank');
  return trimmed;
}

/** A listing's period (canonical instants): `from` may not be after `to`. */
export function assertPeriod(period: { from?: string; to?: string }): void {
  if (period.from !== undefined && period.to !== undefined && period.from > period.to) {
    throw invalid('/query/from', 'must not be after to');
  }
}

/** The longest an activity may be (docs/rules.md §6): 31 days; a running timer's length counts when it is closed. */
export const LONGEST_ACTIVITY_DAYS = 31;
const LONGEST_ACTIVITY_MS = LONGEST_ACTIVITY_DAYS * 86_400_000;

/** How far after now a running timer may start (docs/rules.md §6): 24 hours (clocks and time zones differ, years do not). */
export const TIMER_START_AHEAD_HOURS = 24;

/** Whether an activity from startedAt to endedAt (canonical instants) is longer than LONGEST_ACTIVITY_DAYS. */
export const isTooLong = (startedAt: string, endedAt: string): boolean => Date.parse(endedAt) - Date.parse(startedAt) > LONGEST_ACTIVITY_MS;

export const tooLong = (pointer: string) =>
  invalid(pointer, `must make the activity at most ${LONGEST_ACTIVITY_DAYS} days long`);

/** 422 at the pointer when a running timer would start more than TIMER_START_AHEAD_HOURS after now. */
export function assertTimerStart(startedAt: string, now: string, pointer: string): void {
  if (Date.parse(startedAt) - Date.parse(now) > TIMER_START_AHEAD_HOURS * 3_600_000) {
    throw invalid(pointer, `must be at most ${TIMER_START_AHEAD_HOURS} hours after now for a running timer`);
  }
}

/**
 * A running timer that a new one closes at closeAt: 422 at /body/startedAt when that would make it
 * longer than LONGEST_ACTIVITY_DAYS (its owner stops it first, at an earlier endedAt).
 */
export function assertClosable(running: { startedAt: string }, closeAt: string): void {
  if (isTooLong(running.startedAt, closeAt)) {
    throw invalid(
      '/body/startedAt',
      `would close your running timer more than ${LONGEST_ACTIVITY_DAYS} days after it started: stop it first with an earlier endedAt`,
    );
  }
}

/**
 * The times of a new activity: a running timer (endedAt null) when `pending` is true and endedAt is
 * absent or null; otherwise endedAt is required and may not be before startedAt. An activity is at
 * most LONGEST_ACTIVITY_DAYS long; a timer starts at most TIMER_START_AHEAD_HOURS after now.
 */
export function timesOfNew(body: ActivityCreate, now: string): { startedAt: string; endedAt: string | null } {
  const startedAt = instantOf(body.startedAt, '/body/startedAt');
  let endedAt: string | null = null;
  if (body.endedAt !== undefined && body.endedAt !== null) {
    endedAt = instantOf(body.endedAt, '/body/endedAt');
    if (endedAt < startedAt) throw invalid('/body/endedAt', 'must not be before startedAt');
    if (isTooLong(startedAt, endedAt)) throw tooLong('/body/endedAt');
  } else if (body.pending !== true) {
    throw invalid('/body/endedAt', 'is required unless pending is true');
  } else {
    assertTimerStart(startedAt, now, '/body/startedAt');
  }
  return { startedAt, endedAt };
}

/**
 * What an update body changes besides the project (its plain fields as given), checked against the activity as it is now (422
 * at the field otherwise): endedAt may not end up before startedAt, nor the activity longer than
 * LONGEST_ACTIVITY_DAYS; a running timer (reopened, or moved while it runs) may not start more than
 * TIMER_START_AHEAD_HOURS after now.
 */
export function changesOfFields(
  before: Activity,
  body: ActivityUpdate,
  now: string,
): Partial<Omit<Activity, 'id' | 'userId' | 'projectId'>> {
  const changes: Partial<Omit<Activity, 'id' | 'userId' | 'projectId'>> = plainChangesOf(body);
  if (body.name !== undefined) changes.name = nameOf(body.name);
  if (body.billable !== undefined) changes.billable = body.billable;
  const startedAt = body.startedAt === undefined ? before.startedAt : instantOf(body.startedAt, '/body/startedAt');
  let endedAt = before.endedAt;
  if (body.endedAt !== undefined) endedAt = body.endedAt === null ? null : instantOf(body.endedAt, '/body/endedAt');
  if (endedAt !== null && endedAt < startedAt) {
    throw body.endedAt !== undefined && body.endedAt !== null
      ? invalid('/body/endedAt', 'must not be before startedAt')
      : invalid('/body/startedAt', 'must not be after endedAt');
  }
  const timesChange = body.startedAt !== undefined || body.endedAt !== undefined;
  if (timesChange && endedAt !== null && isTooLong(startedAt, endedAt)) {
    throw tooLong(body.endedAt !== undefined && body.endedAt !== null ? '/body/endedAt' : '/body/startedAt');
  }
  if (timesChange && endedAt === null) assertTimerStart(startedAt, now, '/body/startedAt');
  if (body.startedAt !== undefined) changes.startedAt = startedAt;
  if (body.endedAt !== undefined) changes.endedAt = endedAt;
  return changes;
}

/**
 * Whether an activity of this owner may be booked on the project (docs/rules.md §6): an unarchived
 * project of the workspace the owner is an unarchived member of; an administrator owner may use any
 * unarchived project. A project of another workspace is not found, so never bookable.
 */
export function isBookable(project: { archived: boolean; member: boolean }, owner: { role: Role }): boolean {
  return !project.archived && (project.member || reachesAll(owner, 'projects:book'));
}

export const unbookableProject = () =>
  invalid('/body/projectId', 'must name an unarchived project the activity\'s user is a member of');

export const anotherTimerRuns = () => conflict('Another timer of this user is running: stop it first.');

export const timersStartedTogether = () => conflict('Another timer of this user started at the same moment: try again.');

export const onlyOwnerChanges = () => forbidden('Only the activity\'s user and administrators may change it.');

/** A task as an activity's rule reads it. */
export interface TaskForBooking {
  id: string;
  projectId: string;
  archived: boolean;
  billable: boolean | null;
}

/**
 * 422 at /body/taskId unless the task may be the activity's (docs/rules.md §6 Activities: task and
 * tags): a task of the project the activity has after the write, unarchived unless it is the task the
 * activity has already (`kept`). An unknown task and one of another workspace are not found alike.
 */
export function assertTaskFits(task: TaskForBooking | undefined, projectId: string | null, kept: string | null): TaskForBooking {
  if (task === undefined) throw invalid('/body/taskId', 'must name a task of the activity\'s project');
  if (projectId === null) throw invalid('/body/taskId', 'needs a project: an activity without a project has no task');
  if (task.projectId !== projectId) throw invalid('/body/taskId', 'must name a task of the activity\'s project');
  if (task.archived && task.id !== kept) throw invalid('/body/taskId', 'names an archived task');
  return task;
}

/** A PUT that moves an activity to another project while it keeps a task of the old one. */
export const taskOfOldProject = () =>
  invalid('/body/taskId', 'belongs to the activity\'s old project: send a task of the new project, or null');

/** A body's tag ids without repeats, in the order first given; 422 at /body/tagIds beyond MOST_TAGS of them. */
export function distinctTagIds(ids: readonly string[]): string[] {
  const distinct = [...new Set(ids)];
  if (distinct.length > MOST_TAGS) throw invalid('/body/tagIds', `must hold at most ${MOST_TAGS} distinct tags`);
  return distinct;
}

/**
 * 422 at /body/tagIds unless every tag may be on the activity: a tag of the workspace (`found`, by
 * id), unarchived unless the activity carries it already (`kept`).
 */
export function assertTagsFit(ids: readonly string[], found: ReadonlyArray<{ id: string; archived: boolean }>, kept: readonly string[]): void {
  const archived = new Map(found.map((tag) => [tag.id, tag.archived]));
  for (const id of ids) {
    const isArchived = archived.get(id);
    if (isArchived === undefined) throw invalid('/body/tagIds', `names no tag of this workspace: ${id}`);
    if (isArchived && !kept.includes(id)) throw invalid('/body/tagIds', `names an archived tag: ${id}`);
  }
}
