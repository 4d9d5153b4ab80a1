import { workspaceUrl, type Config } from '../../config.js';
import type { Trx } from '../../db/database.js';
import type { Workspace } from '../../domain/actor.js';
import { enqueueMessage } from '../mail/index.js';
import { getOrganization } from '../workspace/index.js';
import { projectNameOf, unarchivedAdministrators, workspacePerson, type RequestPerson } from './request-mail-repository.js';
import { payloadOf, type RequestRow } from './repository.js';
import type { RequestType } from './schemas.js';

/**
 * The mail a request causes (docs/rules.md §6 Requests, "Mail"): written through the mail area in the
 * request's own transaction, so a message exists exactly when the request (or its resolution) does.
 */

/** What the messages need besides the transaction: the workspace and the configuration its link is built from. */
export interface RequestNotice {
  config: Config;
  workspace: Workspace;
}

/** `notifications.<kind>.email` of a preferences document: only an explicit false turns it off (docs/rules.md §6 Preferences). */
export function wantsRequestMail(preferences: Record<string, unknown>, kind: 'requestCreated' | 'requestResolved'): boolean {
  const notifications = preferences.notifications as Record<string, { email?: unknown } | undefined> | undefined;
  return notifications?.[kind]?.email !== false;
}

/** What a request asks for, as a phrase of a subject line. */
async function whatIsAsked(trx: Trx, request: RequestRow): Promise<string> {
  const payload = payloadOf(request);
  const project = async () => {
    const name = payload.projectId === undefined ? undefined : await projectNameOf(trx, request.organization_id, payload.projectId);
    return name === undefined ? 'a project' : `project "${name}"`;
  };
  const week = `week ${payload.week} of ${payload.year}`;
  const phrases: Record<RequestType, () => Promise<string> | string> = {
    roleChange: async () => `a role change to ${payload.role} in ${await project()}`,
    assignment: async () => {
      const count = payload.userIds?.length ?? 0;
      return `the assignment of ${count} ${count === 1 ? 'user' : 'users'} to ${await project()}`;
    },
    projectAssignment: () => 'an assignment to projects',
    impersonation: () => 'a support sign-in',
    timesheetUnlock: () => `the unlock of ${week}`,
    timesheetApproval: () => `the approval of ${week}`,
  };
  return phrases[request.type as RequestType]();
}

const nameOf = (person: RequestPerson): string => person.name ?? person.email;
const hello = (person: RequestPerson): string => `Hello${person.name ? ` ${person.name}` : ''},\n\n`;

/**
 * A new request made by a user: a `requestCreated` message to each unarchived administrator (they
 * resolve every kind, docs/rules.md §5) but the requester, unless their preference turns it off.
 */
export async function mailRequestCreated(trx: Trx, notice: RequestNotice, request: RequestRow): Promise<void> {
  if (request.created_by === null) return;
  const organizationId = request.organization_id;
  const requester = await workspacePerson(trx, organizationId, request.created_by);
  const recipients = (await unarchivedAdministrators(trx, organizationId)).filter(
    (admin) => admin.id !== request.created_by && wantsRequestMail(admin.preferences, 'requestCreated'),
  );
  if (recipients.length === 0) return;
  const { name } = await getOrganization(trx, organizationId);
  const what = await whatIsAsked(trx, request);
  const who = requester ? `${nameOf(requester)}${requester.name ? ` (${requester.email})` : ''}` : 'A user';
  const link = `${workspaceUrl(notice.config, notice.workspace.domain)}/requests`;
  for (const admin of recipients) {
    await enqueueMessage(trx, {
      organizationId,
      to: admin.email,
      kind: 'requestCreated',
      subject: `New request in ${name}: ${what}`,
      body: `${hello(admin)}${who} asks for ${what} in workspace "${name}". Approve or reject it on the Requests page:\n\n${link}\n`,
    });
  }
}

/**
 * A request resolved (approved or rejected): a `requestResolved` message to its requester, unless they
 * are archived, made no request (the CLI's), or their preference turns it off.
 */
export async function mailRequestResolved(trx: Trx, notice: RequestNotice, request: RequestRow): Promise<void> {
  if (request.created_by === null) return;
  const organizationId = request.organization_id;
  const requester = await workspacePerson(trx, organizationId, request.created_by);
  if (!requester || requester.archived || !wantsRequestMail(requester.preferences, 'requestResolved')) return;
  const { name } = await getOrganization(trx, organizationId);
  const what = await whatIsAsked(trx, request);
  const resolver = request.resolved_by === null ? undefined : await workspacePerson(trx, organizationId, request.resolved_by);
  const outcome = request.status === 'RESOLVED' ? 'approved' : 'rejected';
  const link = `${workspaceUrl(notice.config, notice.workspace.domain)}/`;
  await enqueueMessage(trx, {
    organizationId,
    to: requester.email,
    kind: 'requestResolved',
    subject: `Your request was ${outcome}: ${what}`,
    body: `${hello(requester)}your request for ${what} in workspace "${name}" was ${outcome}${resolver ? ` by ${nameOf(resolver)}` : ''}.\n\n${link}\n`,
  });
}
