import type { Permission } from '../../domain/policy.js';

/**
 * The kinds of record the feed describes, and the permission whose scope decides which of their
 * events a User reads (the same as the record's GET: docs/rules.md §6 Change feed).
 */
export const RESOURCE_PERMISSION = {
  activity: 'activities:read',
  project: 'projects:read',
  member: 'members:read',
  revenue_rate: 'rates:revenue',
  cost_rate: 'rates:cost:read',
  user: 'users:read',
  report: 'reports:manage',
  request: 'requests:read',
  timesheet_lock: 'timesheets:manage',
  tag: 'tags:read',
  client: 'clients:read',
  task: 'tasks:read',
  auto_lock: 'timesheets:manage',
  timesheet_reminder: 'timesheets:manage',
} as const satisfies Record<string, Permission>;

export type ChangeResource = keyof typeof RESOURCE_PERMISSION;

/** Every event type (docs/rules.md §6 Change feed), with the record it describes. */
export const CHANGE_TYPES = {
  'activity.created': 'activity',
  'activity.updated': 'activity',
  'activity.deleted': 'activity',
  'timer.started': 'activity',
  'timer.stopped': 'activity',
  'project.created': 'project',
  'project.updated': 'project',
  'project.archived': 'project',
  'project.unarchived': 'project',
  'project.deleted': 'project',
  'member.added': 'member',
  'member.updated': 'member',
  'member.removed': 'member',
  'revenue_rate.created': 'revenue_rate',
  'revenue_rate.updated': 'revenue_rate',
  'revenue_rate.deleted': 'revenue_rate',
  'cost_rate.created': 'cost_rate',
  'cost_rate.updated': 'cost_rate',
  'cost_rate.deleted': 'cost_rate',
  'user.invited': 'user',
  'user.joined': 'user',
  'user.updated': 'user',
  'user.archived': 'user',
  'user.unarchived': 'user',
  'user.deleted': 'user',
  'report.created': 'report',
  'report.updated': 'report',
  'report.deleted': 'report',
  'request.created': 'request',
  'request.resolved': 'request',
  'timesheet.locked': 'timesheet_lock',
  'timesheet.unlocked': 'timesheet_lock',
  'timesheet.lock_removed': 'timesheet_lock',
  'tag.created': 'tag',
  'tag.updated': 'tag',
  'tag.deleted': 'tag',
  'client.created': 'client',
  'client.updated': 'client',
  'client.deleted': 'client',
  'task.created': 'task',
  'task.updated': 'task',
  'task.deleted': 'task',
  'timesheet.auto_locked': 'auto_lock',
  'timesheet.reminder_sent': 'timesheet_reminder',
} as const satisfies Record<string, ChangeResource>;

export type ChangeType = keyof typeof CHANGE_TYPES;

export const isDeletion = (type: ChangeType): boolean => /(deleted|removed)$/.test(type);

/** The record schema ($id) of each resource's `data`, as the record's own routes answer it. */
export const RESOURCE_SCHEMA: Record<ChangeResource, string> = {
  activity: 'Activity',
  project: 'Project',
  member: 'ProjectMember',
  revenue_rate: 'RevenueRate',
  cost_rate: 'CostRate',
  user: 'User',
  report: 'Report',
  request: 'WorkflowRequestDetail',
  timesheet_lock: 'TimesheetLock',
  tag: 'Tag',
  client: 'Client',
  task: 'Task',
  auto_lock: 'Organization',
  timesheet_reminder: 'TimesheetReminder',
};

/** The kinds of record that belong to a client and no project: a User reads their events through the client's projects. */
export const CLIENT_RESOURCES: ReadonlySet<ChangeResource> = new Set<ChangeResource>(['client']);

/**
 * A cursor is the position of the last event a reader has seen, as decimal text: positions are
 * numbered per workspace in commit order, so "after" means "committed after".
 */
export const CURSOR_PATTERN = '^(0|[1-9][0-9]{0,14})$';
export const positionOfCursor = (cursor: string): number => Number(cursor);
export const cursorOf = (position: number): string => String(position);

export const DAY_MS = 86_400_000;
