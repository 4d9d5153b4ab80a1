import type { FastifyInstance } from 'fastify';
import { countOrganizations, createWorkspace, type CreatedWorkspace } from './areas/workspace/index.js';
import { workspaceUrl } from './config.js';

export const DEMO_DOMAIN = 'demo';

/** On a database without workspaces (and BOOTSTRAP not false): creates `demo` and its administrator. */
export async function bootstrapDemoWorkspace(app: FastifyInstance): Promise<CreatedWorkspace | null> {
  if (!app.config.bootstrap || (await countOrganizations(app.db)) > 0) return null;
  return createWorkspace(app.db, {
    domain: DEMO_DOMAIN,
    name: 'Demo',
    adminEmail: 'admin@example.com',
    adminName: 'Demo Administrator',
  });
}

/** What an operator needs once: where the workspace is, its API key and a request to try. */
export function bootstrapBanner(app: FastifyInstance, created: CreatedWorkspace): string {
  const site = workspaceUrl(app.config, created.domain);
  const url = `${site}/api`;
  const mail = app.config.smtpUrl ? 'the link is mailed' : `the link is in \`npx timetrack outbox list --domain ${created.domain}\``;
  return [
    '',
    `Created workspace "${created.domain}" with administrator admin@example.com.`,
    `  Web app: ${site}/   (sign in as admin@example.com with an emailed link: ${mail})`,
    `  API:     ${url}`,
    `  API key: ${created.apiKey}   (shown once: keep it)`,
    `  Try:     curl -H "Authorization: Bearer ${created.apiKey}" ${url}/auth`,
    '',
  ].join('\n');
}
