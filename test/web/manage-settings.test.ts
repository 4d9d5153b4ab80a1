import { expect, it } from 'vitest';
import { as } from '../support/harness.js';
import { listMessages } from '../support/src.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

describeInBrowser('Web app: the workspace settings page', ({ h, open }) => {
  it('an administrator changes name, currency, core hours, rounding, locking and holidays, and each is what the API then answers', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const page = await open(ws, ws.admin, '/settings');
    const general = page.getByRole('form', { name: 'Workspace' });
    await general.getByLabel('Name').fill('Acme Studio');
    await general.getByLabel(/^Currency/).fill('eur');
    await general.getByLabel('Time zone (weeks lock by its calendar)').selectOption('Europe/Berlin');
    await general.getByLabel('From').fill('08:30');
    await general.getByLabel('Notes').fill('Timesheets are due on Mondays.');
    await general.getByRole('button', { name: 'Save' }).click();
    await general.getByText('Saved.').waitFor();

    const rounding = page.getByRole('form', { name: 'Rounding' });
    await rounding.getByLabel('Round durations').check();
    await rounding.getByLabel('To the nearest (minutes)').fill('6');
    await rounding.getByLabel('Direction').selectOption('UP');
    await rounding.getByRole('button', { name: 'Save rounding' }).click();
    await rounding.getByText('Saved.').waitFor();

    const locking = page.getByRole('form', { name: 'Locking settings' });
    await locking.getByLabel('Lock past weeks automatically').check();
    await locking.getByLabel('An unlock lasts (hours)').fill('48');
    await locking.getByRole('button', { name: 'Save locking' }).click();
    await page.getByRole('region', { name: 'Timesheet locking' }).getByText('Saved.').waitFor();

    const holidays = page.getByRole('form', { name: 'Holidays' });
    await holidays.getByLabel(/^Country/).fill('de');
    await holidays.getByLabel(/^Holidays not observed/).fill('2026-10-03\n2026-12-26');
    await holidays.getByRole('button', { name: 'Save holidays' }).click();
    await holidays.getByText('Saved.').waitFor();

    expect((await api.get('/api/organization')).body).toMatchObject({
      name: 'Acme Studio',
      currency: 'EUR',
      timeZone: 'Europe/Berlin',
      coreHours: { start: '08:30' },
      notes: 'Timesheets are due on Mondays.',
      rounding: { enabled: true, interval: 6, mode: 'UP' },
      lockingTimesheets: { enabled: true, unlockDuration: 48 },
      holidays: { country: 'DE', excluded: ['2026-10-03', '2026-12-26'] },
    });
    await expectAccessible(page);
    await screenshot(page, 'manage-settings', h);
  });

  it('"run auto-lock now" records the last ended week and shows it; "send reminders now" writes the reminder mail', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    await api.put('/api/organization', { lockingTimesheets: { enabled: true } });
    const page = await open(ws, ws.admin, '/settings');
    expect(await page.getByTestId('last-locked-week').textContent()).toBe('none yet');
    await page.getByRole('button', { name: 'Run auto-lock now' }).click();
    await page.getByText(/^Locked up to week \d+ of \d{4}/).waitFor();
    const lock = (await api.get('/api/organization')).body.lockingTimesheets;
    expect(lock.week).toEqual(expect.any(Number));
    expect(await page.getByTestId('last-locked-week').textContent()).toMatch(new RegExp(`^week ${lock.week} of ${lock.year} `));

    await page.getByRole('button', { name: 'Send reminders now' }).click();
    await page.getByText('Reminders are on their way to everyone who has not turned them off.').waitFor();
    await expect.poll(async () => (await listMessages(h.app.db, { organizationId: ws.organizationId })).filter((m) => m.kind === 'timesheetReminder').length).toBe(1);
    await expectAccessible(page);
  });

  it('a taken or malformed address is refused at the field; deleting needs the address typed; billing is shown as free', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    const page = await open(ws, ws.admin, '/settings');
    const rename = page.getByRole('form', { name: 'Address' });
    await rename.getByText('the old one stops answering').waitFor();
    await rename.getByLabel(/^New address/).fill(other.domain);
    await rename.getByRole('button', { name: 'Rename workspace' }).click();
    const field = rename.getByLabel(/^New address/);
    const message = rename.locator('#rename-domain-error');
    await message.waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect((await as(h, ws).get('/api/auth')).body.domain).toBe(ws.domain);

    await page.getByRole('button', { name: 'Delete workspace…' }).click();
    const confirm = page.getByRole('group', { name: 'Delete the workspace' });
    const button = confirm.getByRole('button', { name: 'Delete workspace for good' });
    expect(await button.isDisabled()).toBe(true);
    await confirm.getByLabel(`Type ${ws.domain} to confirm`).fill('not-it');
    expect(await button.isDisabled()).toBe(true);
    await confirm.getByLabel(`Type ${ws.domain} to confirm`).fill(ws.domain);
    expect(await button.isDisabled()).toBe(false);
    await confirm.getByRole('button', { name: 'Cancel' }).click();

    await page.getByText('timetrack is free').waitFor();
    await page.getByText('Subscriptions on record: 0; payments on record: 0.', { exact: false }).waitFor();
    await expectAccessible(page);
  });

  it('the sign-in policy: a malformed domain is refused at its field; "two-factor codes required" is then what GET /api/auth/settings answers', async () => {
    const ws = await h.workspace();
    const api = as(h, ws);
    const page = await open(ws, ws.admin, '/settings');
    const policy = page.getByRole('form', { name: 'Sign-in policy' });
    const domains = policy.getByLabel(/^Email domains that may join/);
    await domains.fill('example.com\nnot a domain');
    await policy.getByRole('button', { name: 'Save sign-in policy' }).click();
    await policy.locator('#policy-domains-error').getByText(/^not a domain: must be an email domain/).waitFor();
    expect(await domains.getAttribute('aria-invalid')).toBe('true');
    expect((await api.get('/api/auth/settings')).body).toEqual({ twoFactorRequired: false, invitationDomains: [] });
    await expectAccessible(page);

    await domains.fill('Example.com');
    await policy.getByLabel('Two-factor codes required').check();
    await policy.getByRole('button', { name: 'Save sign-in policy' }).click();
    await policy.getByText('Saved.').waitFor();
    // The admin's API key is not held by the policy (a session without codes now is).
    expect((await api.get('/api/auth/settings')).body).toEqual({ twoFactorRequired: true, invitationDomains: ['example.com'] });
  });

  it('the sign-in policy is not shown to someone who is not an administrator', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const page = await open(ws, user, '/settings');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByRole('form', { name: 'Sign-in policy' }).count()).toBe(0);
    expect(await page.getByText('Two-factor codes required').count()).toBe(0);
    expect((await as(h, ws, user).get('/api/auth/settings')).status).toBe(403);
  });

  it('deleting the workspace, once its address is typed, removes it and leaves for the service address', async () => {
    const ws = await h.workspace();
    const page = await open(ws, ws.admin, '/settings');
    await page.getByRole('button', { name: 'Delete workspace…' }).click();
    const confirm = page.getByRole('group', { name: 'Delete the workspace' });
    await confirm.getByLabel(`Type ${ws.domain} to confirm`).fill(ws.domain);
    await confirm.getByRole('button', { name: 'Delete workspace for good' }).click();
    await page.waitForURL((url) => !url.hostname.startsWith(ws.domain));
    expect([401, 404]).toContain((await as(h, ws).get('/api/organization')).status);
  });
});
