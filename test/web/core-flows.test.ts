import { describe, expect, it } from 'vitest';
import { testStores } from '../support/stores.js';
import { activitiesOf, signedIn, withTeamWorld } from './world.js';

/* The core flows once per store: the app on the server npm start runs, over SQLite and PostgreSQL. */

for (const store of testStores) {
  describe(`Web app core flows [${store.name}]`, { timeout: 180_000 }, () => {
    const t = withTeamWorld(store, 'core');

    it('a person signs in by email link, runs a timer and fills a timesheet cell, and the API holds the same time', async () => {
      const { context, page } = await signedIn(t.browser, t.world, 'core', t.team.user);
      await page.getByLabel('What are you working on?').fill('Core flow');
      await page.getByRole('button', { name: 'Start' }).click();
      await page.getByRole('button', { name: 'Stop' }).click();
      await page.getByRole('button', { name: 'Start' }).waitFor();
      const timed = (await activitiesOf(t.world, 'core', t.team.user.key)).filter((a) => a.name === 'Core flow');
      expect(timed).toHaveLength(1);
      expect(timed[0].endedAt).not.toBeNull();

      await page.getByRole('link', { name: 'Timesheet' }).click();
      await page.getByRole('button', { name: 'Previous week' }).click();
      await page.getByLabel('Add a project row').fill('Apollo');
      await page.getByLabel('Add a project row').press('Enter');
      const cell = page.getByRole('row', { name: /^Apollo/ }).getByRole('textbox').nth(3);
      await cell.fill('1.5');
      await cell.press('Enter');
      await expect.poll(async () => (await activitiesOf(t.world, 'core', t.team.user.key)).filter((a) => a.projectId === t.team.project.id).map((a) => (Date.parse(a.endedAt!) - Date.parse(a.startedAt)) / 60_000)).toEqual([90]);
      await context.close();
    });
  });
}
