import { api, type Problem, type Schemas } from '../../api/client.js';
import { organization } from '../../lib/session.js';

/** Saves part of the organization (nested objects are merged by the API) and keeps the shared copy current. */
export async function saveOrganization(body: Schemas['UpdateOrganizationBody']): Promise<Problem | undefined> {
  const answer = await api.PUT('/organization', { body });
  if (answer.data) organization.value = answer.data;
  return answer.error;
}
