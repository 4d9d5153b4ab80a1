import type { Member } from '../../data/members.js';
import { formats } from '../../data/preferences.js';
import { projects } from '../../data/projects.js';
import type { WorkflowRequest } from '../../data/requests.js';
import { userLabel } from '../../data/users.js';
import { addDays, mondayOfWeek } from '../../lib/time.js';

const projectName = (projectId: string | undefined) => (projectId && projects.value[projectId]?.name) || 'a project no longer listed';

function weekText(year: number, week: number): string {
  const monday = mondayOfWeek(year, week);
  return `week ${week} of ${year} (${formats.value.dayRange(monday, addDays(monday, 6))})`;
}

/** What a request asks, in words: who asks, for what, on which project or week. */
export function describeRequest(request: WorkflowRequest, members: Record<string, Member>): string {
  const who = request.createdBy ? userLabel(request.createdBy) : 'Support';
  switch (request.type) {
    case 'roleChange': {
      const member = request.memberId ? members[request.memberId] : undefined;
      const whom = member ? userLabel(member.userId) : 'a member';
      return `${who} asks that ${whom} become ${request.role === 'Administrator' ? 'a project admin' : 'a plain member'} of ${projectName(request.projectId)}.`;
    }
    case 'assignment':
      return `${who} asks to add ${(request.userIds ?? []).map(userLabel).join(', ') || 'people'} to ${projectName(request.projectId)}.`;
    case 'projectAssignment':
      return request.projectIds?.length
        ? `${who} asked to be assigned to projects; joined ${request.projectIds.map(projectName).join(', ')}.`
        : `${who} asks to be assigned to projects.`;
    case 'impersonation':
      return 'Support asks to sign in to this workspace as you for one hour, to help. Resolving mails them a one-time link.';
    case 'timesheetUnlock':
      return `${who} asks to unlock ${weekText(request.year!, request.week!)} to change its time.`;
    case 'timesheetApproval':
      return `${who} submits ${weekText(request.year!, request.week!)} for approval.`;
  }
}

export const KIND_LABELS: Record<WorkflowRequest['type'], string> = {
  roleChange: 'Role change',
  assignment: 'Assignment',
  projectAssignment: 'Project assignment',
  impersonation: 'Support access',
  timesheetUnlock: 'Timesheet unlock',
  timesheetApproval: 'Timesheet approval',
};

export const STATUS_LABELS: Record<WorkflowRequest['status'], string> = { PENDING: 'Pending', RESOLVED: 'Granted', REJECTED: 'Rejected' };
