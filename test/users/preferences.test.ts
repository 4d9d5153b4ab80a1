import { expect, it } from 'vitest';
import { as, describeEachStore } from '../support/harness.js';
import { newId } from '../support/src.js';

const EMPTY = { locale: null, timeZone: null, dateTimeFormat: {}, durationFormat: {}, desktop: {}, notifications: {} };

describeEachStore('User preferences', (h) => {
  it('absent fields read as null, objects as {}', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws, user).get(`/api/users/${user.userId}/preferences`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(EMPTY);
  });

  it('only the user themself reads them: 403 for everyone else, administrators included', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const other = await h.user(ws);
    for (const [caller, target] of [
      [ws.admin, user],
      [other, user],
      [user, ws.admin],
    ] as const) {
      const res = await as(h, ws, caller).get(`/api/users/${target.userId}/preferences`);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
  });

  it('only the user themself changes them: 403 for an administrator, and nothing changes', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const res = await as(h, ws).put(`/api/users/${user.userId}/preferences`, { locale: 'fr-FR' });
    expect(res.status).toBe(403);
    expect((await as(h, ws, user).get(`/api/users/${user.userId}/preferences`)).body).toEqual(EMPTY);
  });

  it('an unknown user id is 404, for reading and writing', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    for (const id of [newId(), 'x', other.admin.userId]) {
      expect((await as(h, ws).get(`/api/users/${id}/preferences`)).status).toBe(404);
      expect((await as(h, ws).put(`/api/users/${id}/preferences`, { locale: 'en' })).status).toBe(404);
    }
  });

  it('PUT stores every field and answers the whole document; GET reads it back', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const body = {
      locale: 'de-DE',
      timeZone: 'Europe/Berlin',
      dateTimeFormat: { clock24Hour: true, numeric: false, showSeconds: true },
      durationFormat: { compact: true, mode: 'DECIMAL', showSeconds: false },
      desktop: { startTrackingOnStartup: true, stopTrackingOnShutdown: false },
      notifications: {
        activityCreated: { dashboard: true, email: true, popup: false },
        monthlyGoalReached: { dashboard: false, email: true, popup: true },
        timesheetReminder: { email: false },
        requestCreated: { popup: true },
        requestResolved: { dashboard: true },
      },
    };
    const res = await as(h, ws, user).put(`/api/users/${user.userId}/preferences`, body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(body);
    expect((await as(h, ws, user).get(`/api/users/${user.userId}/preferences`)).body).toEqual(body);
  });

  it('PUT merges deeply: one notification flag changes alone, everything else keeps its value', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const url = `/api/users/${user.userId}/preferences`;
    await as(h, ws, user).put(url, {
      locale: 'en-GB',
      durationFormat: { mode: 'HOURS_MINUTES', compact: false },
      notifications: {
        activityCreated: { dashboard: true, email: true, popup: true },
        monthlyGoalReached: { dashboard: true, email: true, popup: true },
      },
    });
    const res = await as(h, ws, user).put(url, {
      notifications: { activityCreated: { email: false } },
      durationFormat: { compact: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...EMPTY,
      locale: 'en-GB',
      durationFormat: { mode: 'HOURS_MINUTES', compact: true },
      notifications: {
        activityCreated: { dashboard: true, email: false, popup: true },
        monthlyGoalReached: { dashboard: true, email: true, popup: true },
      },
    });
    expect((await as(h, ws, user).get(url)).body).toEqual(res.body);
  });

  it('locale and time zone are stored in canonical form and null clears them', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const url = `/api/users/${user.userId}/preferences`;
    const set = await as(h, ws, user).put(url, { locale: 'EN-us', timeZone: 'America/New_York' });
    expect(set.body).toMatchObject({ locale: 'en-US', timeZone: 'America/New_York' });
    const cleared = await as(h, ws, user).put(url, { locale: null, timeZone: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual(EMPTY);
  });

  it('an unknown locale, time zone, duration mode or notification kind, or a wrong type, is 422 and changes nothing', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const url = `/api/users/${user.userId}/preferences`;
    const cases: [unknown, string][] = [
      [{ locale: 'en_US' }, '/body/locale'],
      [{ locale: 'not a locale' }, '/body/locale'],
      [{ locale: 'toolonglanguage' }, '/body/locale'],
      [{ locale: 5 }, '/body/locale'],
      [{ timeZone: 'Mars/Olympus_Mons' }, '/body/timeZone'],
      [{ timeZone: 'CEST+2' }, '/body/timeZone'],
      [{ durationFormat: { mode: 'MINUTES' } }, '/body/durationFormat/mode'],
      [{ notifications: { lunchTime: { email: true } } }, '/body/notifications/lunchTime'],
      [{ notifications: { activityCreated: { email: 'false' } } }, '/body/notifications/activityCreated/email'],
      [{ notifications: { activityCreated: true } }, '/body/notifications/activityCreated'],
      [{ dateTimeFormat: { clock24Hour: 1 } }, '/body/dateTimeFormat/clock24Hour'],
      [{ desktop: null }, '/body/desktop'],
    ];
    for (const [body, pointer] of cases) {
      const res = await as(h, ws, user).put(url, { locale: 'fr-FR', ...(body as object) });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('validation');
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    expect((await as(h, ws, user).get(url)).body).toEqual(EMPTY);
  });

  it('unknown keys are ignored and never stored', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const url = `/api/users/${user.userId}/preferences`;
    const res = await as(h, ws, user).put(url, {
      colour: 'red',
      dateTimeFormat: { clock24Hour: true, calendar: 'hebrew' },
      desktop: { launchOnLogin: true },
      notifications: { activityCreated: { email: true, sms: true } },
    });
    expect(res.status).toBe(200);
    const expected = { ...EMPTY, dateTimeFormat: { clock24Hour: true }, notifications: { activityCreated: { email: true } } };
    expect(res.body).toEqual(expected);
    const stored = await h.app.db
      .selectFrom('user_preferences')
      .select('document')
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(stored.document).not.toMatch(/colour|hebrew|launchOnLogin|sms/);
  });

  it('concurrent PUTs each changing one flag all land: none loses another\'s change', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const url = `/api/users/${user.userId}/preferences`;
    const kinds = ['activityCreated', 'monthlyGoalReached', 'timesheetReminder', 'requestCreated', 'requestResolved'];
    const results = await Promise.all(
      kinds.flatMap((kind) =>
        ['dashboard', 'email', 'popup'].map((flag) => as(h, ws, user).put(url, { notifications: { [kind]: { [flag]: true } } })),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const all = { dashboard: true, email: true, popup: true };
    expect((await as(h, ws, user).get(url)).body.notifications).toEqual(Object.fromEntries(kinds.map((k) => [k, all])));
  });
});
