import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium, personContext, startWebWorld, type WebWorld } from '../support/browser.js';
import { runCli } from '../support/processes.js';
import type { TestStore } from '../support/stores.js';

/** A workspace with an administrator and a User who is a member of one project. */
export interface Team {
  domain: string;
  admin: { email: string; key: string; userId: string };
  user: { email: string; key: string; userId: string };
  project: { id: string; name: string };
}

export async function makeTeam(world: WebWorld, domain: string): Promise<Team> {
  const ws = await world.workspace(domain);
  const admin = (path: string, method = 'GET', body?: unknown) => world.api(domain, method, path, { token: ws.adminKey, body });
  const adminId = Object.values((await admin('/users')).body as Record<string, { id: string; email: string }>).find((u) => u.email === ws.adminEmail)!.id;
  const invited = await admin('/users', 'POST', { email: `uma@${domain}.test`, name: 'Uma User', role: 'User' });
  expect(invited.status).toBe(200);
  const key = await runCli(['apikey', 'create', '--domain', domain, '--email', `uma@${domain}.test`], { DATABASE_URL: world.databaseUrl });
  expect(key.code, key.stderr).toBe(0);
  const project = await admin('/projects', 'POST', { name: 'Apollo', billable: true });
  expect(project.status).toBe(200);
  expect((await admin(`/projects/${project.body.id}/members`, 'POST', { userId: invited.body.id, role: 'User' })).status).toBe(200);
  return {
    domain,
    admin: { email: ws.adminEmail, key: ws.adminKey, userId: adminId },
    user: { email: `uma@${domain}.test`, key: JSON.parse(key.stdout).apiKey, userId: invited.body.id },
    project: { id: project.body.id, name: 'Apollo' },
  };
}

export interface TeamWorld {
  world: WebWorld;
  browser: Browser;
  team: Team;
}

/**
 * For the tests of the enclosing describe: the server npm start runs, on `store`, with a team at
 * `domain`, and Chromium. The fields are set before the first test.
 */
export function withTeamWorld(store: TestStore, domain: string): TeamWorld {
  const world = {} as TeamWorld;
  beforeAll(async () => {
    [world.world, world.browser] = await Promise.all([startWebWorld(store), launchChromium()]);
    world.team = await makeTeam(world.world, domain);
  }, 180_000);
  afterAll(async () => {
    await world.browser?.close();
    await world.world?.stop();
  });
  return world;
}

/** Signs in through the sign-in page's email link form, the link read from the outbox, and its button. */
export async function signInByEmailLink(page: Page, world: WebWorld, domain: string, email: string): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith('/sign-in')) await page.goto(`${world.origin(domain)}/sign-in`);
  await page.getByLabel('Email', { exact: true }).first().fill(email);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await page.getByText(`If ${email} belongs to this workspace`).waitFor();
  await redeemLink(page, await lastMailedLink(world, domain, email));
}

/** A signed-in browser of one person (by email link: the session cookie), on the Track page. */
export async function signedIn(browser: Browser, world: WebWorld, domain: string, person: { email: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await personContext(browser);
  const page = await context.newPage();
  await page.goto(`${world.origin(domain)}/`);
  await page.waitForURL((url) => url.pathname === '/sign-in');
  await signInByEmailLink(page, world, domain, person.email);
  await page.getByRole('heading', { name: 'Track' }).waitFor();
  return { context, page };
}

/** The person's activities as the API lists them. */
export async function activitiesOf(world: WebWorld, domain: string, key: string): Promise<Array<{ id: string; name: string; startedAt: string; endedAt: string | null; projectId: string | null }>> {
  const answer = await world.api(domain, 'GET', '/activities', { token: key });
  expect(answer.status).toBe(200);
  return Object.values(answer.body);
}

/** The last one-time sign-in link the workspace's outbox holds (as `timetrack outbox list` prints it). */
export async function lastMailedLink(world: WebWorld, domain: string, to?: string): Promise<string> {
  const listed = await runCli(['outbox', 'list', '--domain', domain], { DATABASE_URL: world.databaseUrl });
  expect(listed.code, listed.stderr).toBe(0);
  const messages = listed.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  const links = messages
    .filter((message) => to === undefined || JSON.stringify(message).includes(to))
    .flatMap((message) => [...JSON.stringify(message).matchAll(/http:\/\/[^\s"\\]+\/auth\/one-time\?token=[\w.-]+/g)].map((match) => match[0]));
  expect(links.length).toBeGreaterThan(0);
  return links.at(-1)!;
}

/** A support sign-in link (the operator asks, the administrator grants): a real cookie session as the administrator. */
export async function supportLink(world: WebWorld, team: Team): Promise<string> {
  const asked = await runCli(['support', 'impersonate', '--domain', team.domain, '--reason', 'Browser test'], { DATABASE_URL: world.databaseUrl });
  expect(asked.code, asked.stderr).toBe(0);
  const { requestId } = JSON.parse(asked.stdout);
  expect((await world.api(team.domain, 'PUT', `/requests/${requestId}`, { token: team.admin.key, body: { status: 'RESOLVED' } })).status).toBe(200);
  return lastMailedLink(world, team.domain);
}

/** Opens a mailed link and presses its Sign in button (the link alone signs nobody in). */
export async function redeemLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
}
