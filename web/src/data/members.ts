import { computed, signal } from '@preact/signals';
import { api, type Schemas } from '../api/client.js';

export type Member = Schemas['ProjectMember'];

/** Each project's members (loaded per project, when a page needs them), by project id. */
export const membersByProject = signal<Record<string, Member[]>>({});

/** Every member loaded so far, by member id (a role-change request names a member). */
export const membersById = computed(() => Object.fromEntries(Object.values(membersByProject.value).flat().map((member) => [member.id, member])));

export async function loadMembers(projectId: string): Promise<Member[]> {
  const answer = await api.GET('/projects/{projectId}/members', { params: { path: { projectId } } });
  if (!answer.data) return membersByProject.value[projectId] ?? [];
  const members = Object.values(answer.data);
  membersByProject.value = { ...membersByProject.value, [projectId]: members };
  return members;
}

export async function addMember(projectId: string, body: Schemas['CreateProjectMemberBody']) {
  const answer = await api.POST('/projects/{projectId}/members', { params: { path: { projectId } }, body });
  await loadMembers(projectId);
  return answer;
}

export async function updateMember(projectId: string, memberId: string, body: Schemas['UpdateProjectMemberBody']) {
  const answer = await api.PUT('/projects/{projectId}/members/{memberId}', { params: { path: { projectId, memberId } }, body });
  await loadMembers(projectId);
  return answer;
}

export async function removeMember(projectId: string, memberId: string) {
  const answer = await api.DELETE('/projects/{projectId}/members/{memberId}', { params: { path: { projectId, memberId } } });
  await loadMembers(projectId);
  return answer;
}
