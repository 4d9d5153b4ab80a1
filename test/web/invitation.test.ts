import { expect, it } from 'vitest';
import { personContext } from '../support/browser.js';
import { as } from '../support/harness.js';
import { listMessages } from '../support/src.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/** docs/rules.md §6 Users (invited, then active); docs/web-app.md (the password prompt after an invitation). */

const LINK = /http:\/\/\S+\/auth\/one-time\?token=tto_[A-Za-z0-9_-]{43}/;

describeInBrowser('Web app: invitations', ({ h, open }) => {
  it('the team shows an invited person as Invited until they arrive by the link, set a password when prompted, and sign in with it', async () => {
    const ws = await h.workspace();
    const team = await open(ws, ws.admin, '/team');
    const email = `gwen-${ws.domain}@example.com`;
    await team.getByLabel('Email').fill(email);
    await team.getByLabel('Name (optional)').fill('Gwen');
    await team.getByRole('button', { name: 'Send invitation' }).click();
    await team.getByText(`Invitation sent to ${email}.`).waitFor();
    const person = team.getByRole('list', { name: 'People' }).getByRole('listitem').filter({ hasText: 'Gwen' });
    await person.getByText('Invited', { exact: true }).waitFor();
    await team.getByRole('button', { name: 'Resend invitation to Gwen' }).click();
    await team.getByText(`Invitation sent again to ${email}.`).waitFor();
    const invitations = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.kind === 'invitation' && m.to === email);
    expect(invitations).toHaveLength(2);
    await expectAccessible(team);

    const context = await personContext(team.context().browser()!);
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    await page.goto(LINK.exec(invitations[1].body)![0]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set a password' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'invitation-password', h);
    await page.getByLabel('New password (12 characters or more)').fill('correct horse battery');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('heading', { name: 'Track' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await page.locator('#password-email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Track' }).waitFor();
    await context.close();

    const gwen = Object.values((await as(h, ws).get('/api/users')).body as Record<string, any>).find((u) => u.email === email);
    expect(gwen.joinedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    await team.reload();
    await person.waitFor();
    expect(await person.getByText('Invited', { exact: true }).count()).toBe(0);
    expect(await team.getByRole('button', { name: 'Resend invitation to Gwen' }).count()).toBe(0);
    await expectAccessible(team);
  });

  it('"Later" skips the prompt: the person lands on Track, and a later invitation link does not ask again', async () => {
    const ws = await h.workspace();
    const email = `hal-${ws.domain}@example.com`;
    const team = await open(ws, ws.admin, '/team');
    const context = await personContext(team.context().browser()!);
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    for (const step of ['prompted', 'not again']) {
      await as(h, ws).post('/api/users', { email, name: 'Hal' });
      const mail = (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.kind === 'invitation' && m.to === email).at(-1)!;
      await page.goto(LINK.exec(mail.body)![0]);
      await page.getByRole('button', { name: 'Sign in' }).click();
      if (step === 'prompted') {
        await page.getByRole('heading', { name: 'Set a password' }).waitFor();
        await page.getByRole('button', { name: 'Later' }).click();
      }
      await page.getByRole('heading', { name: 'Track' }).waitFor();
    }
    await context.close();
  });
});
