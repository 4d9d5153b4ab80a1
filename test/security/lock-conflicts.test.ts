import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { as, describeEachStore, type Harness } from '../support/harness.js';

/**
 * PostgreSQL rolls a transaction back to break a deadlock (40P01); the service runs such a transaction
 * again from scratch. A trigger that raises the deadlock's own error code stands in for the concurrent
 * writer, so the number of collisions in a row is exact: a real deadlock cannot be made to happen
 * three times on demand. SQLite runs its transactions one at a time and never deadlocks.
 */
async function collideOnProjectInsert(h: Harness, namePrefix: string, collisions: number | 'always'): Promise<void> {
  const db = h.app.db;
  const sequence = `collisions_${namePrefix}`;
  await sql.raw(`create sequence if not exists ${sequence}`).execute(db);
  const raises = collisions === 'always' ? 'true' : `nextval('${sequence}') <= ${collisions}`;
  await sql
    .raw(
      `create or replace function collide_${namePrefix}() returns trigger language plpgsql as $$
       begin
         if new.name like '${namePrefix}%' and ${raises} then
           raise exception 'deadlock detected (simulated)' using errcode = '40P01';
         end if;
         return new;
       end $$`,
    )
    .execute(db);
  await sql.raw(`create trigger collide_${namePrefix} before insert on projects for each row execute function collide_${namePrefix}()`).execute(db);
}

describeEachStore('Transactions rolled back by PostgreSQL to break a deadlock', (h) => {
  it.runIf(h.store === 'postgres')('a transaction rolled back twice by a deadlock is run again and its write answers 200, once', async () => {
    const ws = await h.workspace();
    await collideOnProjectInsert(h, 'twice', 2);
    const res = await as(h, ws).post('/api/projects', { name: 'twice collided' });
    expect(res.status).toBe(200);
    const listed = Object.values((await as(h, ws).get('/api/projects')).body as Record<string, { name: string }>);
    expect(listed.filter((p) => p.name === 'twice collided')).toHaveLength(1);
  });

  it.runIf(h.store === 'postgres')('a transaction rolled back by a deadlock on every run answers 503 busy with Retry-After and changes nothing', async () => {
    const ws = await h.workspace();
    await collideOnProjectInsert(h, 'always', 'always');
    const res = await as(h, ws).post('/api/projects', { name: 'always collided' });
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toEqual({
      type: 'urn:timetrack:problem:busy',
      title: 'Busy: send the request again',
      status: 503,
      detail: 'The request collided with concurrent changes to the same records several times in a row and changed nothing: send it again.',
      code: 'busy',
    });
    const listed = Object.values((await as(h, ws).get('/api/projects')).body as Record<string, { name: string }>);
    expect(listed.map((p) => p.name)).not.toContain('always collided');
  });
});
