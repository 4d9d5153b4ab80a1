import type { Config } from '../../../../config.js';
import type { Db } from '../../../../db/database.js';
import type { Workspace } from '../../../../domain/actor.js';
import { invalid } from '../../../../domain/errors.js';
import { isEmail, normalizeEmail } from '../../../../lib/email.js';
import { mailSignInLink, mailWorkspaceList } from './link-mail-service.js';

function emailOf(text: string): string {
  const email = normalizeEmail(text);
  if (!isEmail(email)) throw invalid('/body/email', 'must be an email address');
  return email;
}

/** POST /auth/email-link and /auth/password-reset: see mailSignInLink. */
export async function requestLink(db: Db, config: Config, workspace: Workspace, email: string, purpose: 'sign-in' | 'password-reset'): Promise<void> {
  await mailSignInLink(db, config, workspace, emailOf(email), purpose);
}

/** POST /auth/find-workspaces: see mailWorkspaceList. */
export async function requestWorkspaceList(db: Db, config: Config, email: string): Promise<void> {
  await mailWorkspaceList(db, config, emailOf(email));
}
