import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, ok, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';

/* Two-factor codes in the web app (docs/web-app.md, "Two-factor codes"; docs/rules.md §8): issue 37, defect 1. */

const PASSWORD = 'correct horse battery staple';

/** The code an authenticator app shows for the secret, `steps` 30-second steps from now. */
const codeOf = (secret: string, steps = 0) => new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, '')) }).generate({ timestamp: Date.now() + steps * 30_000 });

/** A code that is none of the three the ±30 s window takes now. */
const wrongCodeOf = (secret: string) => String((Number(codeOf(secret)) + 500_000) % 1_000_000).padStart(6, '0');

/** Waits out the last seconds of a 30-second step, so a code computed now is still in the window when it arrives. */
async function freshStep(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 25_000) await new Promise((resolve) => setTimeout(resolve, 30_100 - intoStep));
}

async function givePassword(h: Harness, ws: TestWorkspace, user: TestUser): Promise<void> {
  const session = await make.session(h, user.userId);
  await ok(h.call('PUT', '/api/auth/password', { host: ws.host, token: session, body: { newPassword: PASSWORD } }));
}

/** Signs out from the header and in again with the password, on the sign-in page. */
async function signOutAndIn(page: Page, user: TestUser): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  const form = page.getByRole('form', { name: 'Sign in with a password' });
  await form.getByLabel('Email').fill(user.email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

describeInBrowser('Web app: two-factor codes', ({ h, open }) => {
  it('with codes required, sign-in continues into enrolment and then the dashboard; the code step replaces the form, focused, refuses a wrong code in words, and a recovery code works once', async () => {
    const ws = await h.workspace();
    await givePassword(h, ws, ws.admin);
    const page = await open(ws, ws.admin, '/settings');
    const policy = page.getByRole('form', { name: 'Sign-in policy' });
    await policy.getByLabel('Two-factor codes required').check();
    await policy.getByRole('button', { name: 'Save sign-in policy' }).click();
    await policy.getByText('Saved.').waitFor();

    // Signing in goes straight into enrolment, not back to the sign-in page.
    await signOutAndIn(page, ws.admin);
    await page.getByRole('heading', { name: 'Set up two-factor codes', level: 1 }).waitFor();
    expect(await page.getByText('This workspace requires a code from an authenticator app each time you sign in. Set it up to continue.').count()).toBe(1);
    await page.getByRole('img', { name: 'QR code to add timetrack to your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('two-factor-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page);
    await screenshot(page, 'two-factor-enrolment', h);
    // The screenshot leaves the page at 360 px, where the navigation is behind its menu: back to the desktop size.
    await page.setViewportSize({ width: 1100, height: 800 });

    const confirm = page.getByRole('form', { name: 'Confirm two-factor codes' });
    await confirm.getByLabel('2. Type the six-digit code the app shows').fill(wrongCodeOf(secret));
    await confirm.getByRole('button', { name: 'Turn on two-factor codes' }).click();
    await confirm.getByText('That code is not the current one: type the code your app shows now.').waitFor();
    // The step before's code leaves the current and next ones for the sign-ins that follow.
    await freshStep();
    await confirm.getByLabel('2. Type the six-digit code the app shows').fill(codeOf(secret, -1));
    await confirm.getByRole('button', { name: 'Turn on two-factor codes' }).click();
    const shown = page.getByRole('region', { name: 'Your recovery codes' });
    await shown.getByText('they are shown only this once').waitFor();
    const recoveryCodes = await shown.getByTestId('recovery-codes').locator('li').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await expectAccessible(page);
    await shown.getByRole('button', { name: 'Continue to timetrack' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // Signing in again: the code step takes the form's place, its field focused.
    await signOutAndIn(page, ws.admin);
    await page.getByRole('heading', { name: 'Two-factor code', level: 1 }).waitFor();
    expect(await page.getByRole('heading', { name: 'Sign in with a password' }).count()).toBe(0);
    expect(await page.getByRole('form', { name: 'Sign in with a password' }).count()).toBe(0);
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('second-factor');
    await expectAccessible(page);
    await page.keyboard.type(wrongCodeOf(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').getByText('That code is wrong or already used.').waitFor();
    await page.getByLabel('Code from your authenticator app').fill(codeOf(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // A recovery code instead of a code: once.
    await signOutAndIn(page, ws.admin);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('second-factor');
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await signOutAndIn(page, ws.admin);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').getByText('That code is wrong or already used.').waitFor();
    await page.getByLabel('Recovery code').fill(recoveryCodes[1].toUpperCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // Profile → Security: required here, so the codes cannot be turned off; new recovery codes can be had.
    await page.getByRole('link', { name: 'Profile' }).click();
    const section = page.getByRole('region', { name: 'Two-factor codes' });
    await section.getByText('On: signing in asks for a code from your authenticator app. 8 of 10 recovery codes left.').waitFor();
    await section.getByText('This workspace requires two-factor codes, so they cannot be turned off.').waitFor();
    expect(await section.getByRole('button', { name: 'Turn off two-factor codes' }).count()).toBe(0);
    await section.getByLabel('Code from your authenticator app, or a recovery code').fill(recoveryCodes[2]);
    await section.getByRole('button', { name: 'New recovery codes' }).click();
    await section.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const renewed = await section.getByTestId('recovery-codes').locator('li').allTextContents();
    expect(renewed).toHaveLength(10);
    for (const code of renewed) expect(recoveryCodes).not.toContain(code);
    await expectAccessible(page);
    await section.getByRole('button', { name: 'Done' }).click();
    await section.getByText('On: signing in asks for a code from your authenticator app. 10 of 10 recovery codes left.').waitFor();
  });

  it('in Profile → Security a person sets codes up, gets new recovery codes with a code, and turns them off where not required', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const page = await open(ws, user, '/profile');
    const section = page.getByRole('region', { name: 'Two-factor codes' });
    await section.getByText('Off: signing in asks only for your password or a mailed link.').waitFor();
    await section.getByRole('button', { name: 'Set up two-factor codes' }).click();
    const secret = (await section.getByTestId('two-factor-secret').textContent())!.replace(/\s/g, '');
    await freshStep();
    await section.getByLabel('2. Type the six-digit code the app shows').fill(codeOf(secret, -1));
    await section.getByRole('button', { name: 'Turn on two-factor codes' }).click();
    await section.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const first = await section.getByTestId('recovery-codes').locator('li').allTextContents();
    expect(first).toHaveLength(10);
    await section.getByRole('button', { name: 'Done' }).click();
    await section.getByText('On: signing in asks for a code from your authenticator app. 10 of 10 recovery codes left.').waitFor();
    expect(await ok(as(h, ws, user).get('/api/auth/two-factor'))).toEqual({ enabled: true, pending: false, recoveryCodesLeft: 10, requiredByWorkspace: false });

    // A wrong code is refused in words; the current one gives ten new recovery codes.
    const proof = section.getByLabel('Code from your authenticator app, or a recovery code');
    await proof.fill(wrongCodeOf(secret));
    await section.getByRole('button', { name: 'New recovery codes' }).click();
    await section.getByText('That code is wrong or already used.').waitFor();
    expect(await proof.getAttribute('aria-invalid')).toBe('true');
    await proof.fill(codeOf(secret));
    await section.getByRole('button', { name: 'New recovery codes' }).click();
    await section.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const renewed = await section.getByTestId('recovery-codes').locator('li').allTextContents();
    expect(renewed).toHaveLength(10);
    for (const code of renewed) expect(first).not.toContain(code);
    await section.getByRole('button', { name: 'Done' }).click();

    // Not required here: a recovery code turns them off.
    await section.getByLabel('Code from your authenticator app, or a recovery code').fill(renewed[0]);
    await section.getByRole('button', { name: 'Turn off two-factor codes' }).click();
    await section.getByText('Two-factor codes are now off.').waitFor();
    await section.getByRole('button', { name: 'Set up two-factor codes' }).waitFor();
    expect(await ok(as(h, ws, user).get('/api/auth/two-factor'))).toEqual({ enabled: false, pending: false, recoveryCodesLeft: 0, requiredByWorkspace: false });
    await expectAccessible(page);
  });
});
