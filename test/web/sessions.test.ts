import { describe, expect, it } from 'vitest';
import { personContext, phoneScreenshot, seriousViolations } from '../support/browser.js';
import { currentCode } from '../support/src.js';
import { testStores } from '../support/stores.js';
import { activitiesOf, lastMailedLink, redeemLink, signedIn, supportLink, withTeamWorld } from './world.js';

/* The browser session: the HttpOnly cookie sign-in sets, CSRF, and a session that ends under the person. */

const sqlite = testStores.find((store) => store.name === 'sqlite')!;

describe('Web app sessions in a browser', { timeout: 180_000 }, () => {
  const t = withTeamWorld(sqlite, 'acme');

  it('a mailed link signs in only when its button is pressed, and the session is an HttpOnly cookie no script can read', async () => {
    const context = await personContext(t.browser);
    const page = await context.newPage();
    const link = await supportLink(t.world, t.team);
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await context.cookies()).toEqual([]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect.poll(async () => (await context.cookies(t.world.origin('acme'))).length).toBe(1);
    const [cookie] = await context.cookies(t.world.origin('acme'));
    expect(cookie).toMatchObject({ name: 'timetrack_access_token', httpOnly: true, sameSite: 'Lax', path: '/', domain: 'acme.localhost' });
    // Polled: the app may still navigate after the heading shows, which ends an evaluation under way.
    await expect.poll(() => page.evaluate('document.cookie')).toBe('');
    await expect.poll(() => page.evaluate('JSON.stringify({ ...localStorage, ...sessionStorage })')).not.toContain(cookie.value);
    // The same link again: used up.
    const again = await context.newPage();
    await again.goto(link);
    await again.getByRole('button', { name: 'Sign in' }).click();
    await again.getByText('This link has been used or has expired.').waitFor();
    await context.close();
  });

  it('a write from another origin with the session cookie fails (CSRF), while the app itself writes', async () => {
    const context = await personContext(t.browser);
    const page = await context.newPage();
    await redeemLink(page, await supportLink(t.world, t.team));
    const target = `${t.world.origin('acme')}/api/activities`;
    const own = await page.evaluate(async (url) => {
      const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'own origin', startedAt: new Date().toISOString(), endedAt: new Date().toISOString() }) });
      return answer.status;
    }, target);
    expect(own).toBe(200);

    const evil = await context.newPage();
    await evil.goto(`${t.world.origin('evil')}/healthz`);
    await evil.evaluate(async (url) => {
      await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ name: 'forged by fetch', startedAt: new Date().toISOString(), endedAt: new Date().toISOString() }) }).catch(() => undefined);
    }, target);
    const answer = evil.waitForResponse(target);
    // A form posted from the other origin: a top-level navigation, the cookie's SameSite=Lax case.
    await evil.evaluate(`(() => {
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = ${JSON.stringify(target)};
      form.enctype = 'text/plain';
      const field = document.createElement('input');
      field.name = '{"name":"forged by form","startedAt":"2026-01-01T00:00:00Z","endedAt":"2026-01-01T01:00:00Z","x":"';
      field.value = '"}';
      form.append(field);
      document.body.append(form);
      form.submit();
    })()`);
    expect([401, 403]).toContain((await answer).status());
    const names = (await activitiesOf(t.world, 'acme', t.team.admin.key)).map((activity) => activity.name);
    expect(names).toContain('own origin');
    expect(names.filter((name) => name.startsWith('forged'))).toEqual([]);
    await context.close();
  });

  it('a session that ends returns the person to sign-in, and signing in again brings them back to the page they were on', async () => {
    const context = await personContext(t.browser);
    const page = await context.newPage();
    await redeemLink(page, await supportLink(t.world, t.team));
    await page.getByRole('link', { name: 'Timesheet' }).click();
    await page.getByRole('heading', { name: 'Timesheet' }).waitFor();
    const sessions = await t.world.api('acme', 'GET', '/auth/sessions', { token: t.team.admin.key });
    for (const session of Object.values(sessions.body) as Array<{ id: string }>) {
      expect((await t.world.api('acme', 'DELETE', `/auth/sessions/${session.id}`, { token: t.team.admin.key })).status).toBe(200);
    }
    await page.getByRole('button', { name: 'Next week' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/timesheet');
    await page.getByRole('heading', { name: 'Sign in to acme Ltd', exact: true }).waitFor();
    await redeemLink(page, await supportLink(t.world, t.team));
    expect(new URL(page.url()).pathname).toBe('/timesheet');
    await page.getByRole('heading', { name: 'Timesheet' }).waitFor();
    await context.close();
  });
});

describe('Web app sign-in by password and public pages in a browser', { timeout: 180_000 }, () => {
  const t = withTeamWorld(sqlite, 'acme');

  it('a password set after a link sign-in signs in; a reset link sets a new one; a wrong password is refused', async () => {
    const { context, page } = await signedIn(t.browser, t.world, 'acme', t.team.user);
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByLabel('New password (12 characters or more)').fill('correct horse battery');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    expect(await context.cookies(t.world.origin('acme'))).toEqual([]);

    await page.locator('#password-email').fill(t.team.user.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong horse battery');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('The email or the password is wrong.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Track' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await page.locator('#password-email').fill(t.team.user.email);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByText('a link to choose a new password is on its way').waitFor();
    await page.goto(await lastMailedLink(t.world, 'acme', t.team.user.email));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('New password (12 characters or more)').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('heading', { name: 'Track' }).waitFor();
    const signIn = (password: string) => t.world.api('acme', 'POST', '/auth/sign-in', { body: { email: t.team.user.email, password } });
    expect((await signIn('a brand new passphrase')).status).toBe(200);
    expect((await signIn('correct horse battery')).status).toBe(401);
    await context.close();
  });

  it('an account with two-factor codes on is asked for a code after its mailed link: a wrong code is refused, the right one signs in', async () => {
    const admin = (method: string, path: string, body?: unknown) => t.world.api('acme', method, path, { token: t.team.admin.key, body });
    const enrolled = await admin('POST', '/auth/two-factor');
    expect(enrolled.status).toBe(200);
    const { secret } = enrolled.body as { secret: string };
    expect((await admin('POST', '/auth/two-factor/confirm', { code: currentCode(secret, Date.now() - 30_000) })).status).toBe(200);

    const context = await personContext(t.browser);
    const page = await context.newPage();
    await page.goto(`${t.world.origin('acme')}/sign-in`);
    await page.getByLabel('Email', { exact: true }).first().fill(t.team.admin.email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByText(`If ${t.team.admin.email} belongs to this workspace`).waitFor();
    await page.goto(await lastMailedLink(t.world, 'acme', t.team.admin.email));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Two-factor code' }).waitFor();
    expect(await context.cookies(t.world.origin('acme'))).toEqual([]);
    await page.getByLabel('Code from your authenticator app').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code is wrong or already used.').waitFor();
    await page.getByLabel('Code from your authenticator app').fill(currentCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect((await context.cookies(t.world.origin('acme'))).map((cookie) => cookie.name)).toEqual(['timetrack_access_token']);
    await context.close();
  });

  it('the sign-in and link pages name the workspace; they and the find-your-workspace page pass axe with no serious or critical violation, and are photographed at 360 px', async () => {
    const context = await personContext(t.browser);
    const page = await context.newPage();
    const pages: [string, string, string][] = [
      ['sign-in', `${t.world.origin('acme')}/sign-in`, 'Sign in to acme Ltd'],
      ['mailed-link', `${t.world.origin('acme')}/auth/one-time?token=tto_unused`, 'Sign in to acme Ltd'],
      ['find-your-workspace', `http://localhost:${t.world.port}/`, 'Find your workspace'],
    ];
    for (const [name, url, heading] of pages) {
      await page.goto(url);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      expect(await seriousViolations(page), name).toEqual([]);
      await phoneScreenshot(page, name);
      await page.setViewportSize({ width: 1100, height: 800 });
    }
    await page.goto(`http://localhost:${t.world.port}/`);
    await page.getByLabel('Your email address').fill(t.team.user.email);
    await page.getByRole('button', { name: 'Email me my workspaces' }).click();
    await page.getByText('If that address belongs to a workspace').waitFor();
    await context.close();
  });
});
