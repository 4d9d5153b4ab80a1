import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore, type Harness } from '../support/harness.js';
import { AUTHORIZATION_MATRIX, CALLERS, WORKSPACE_ENDING, type Caller, type MatrixRow } from './authorization-matrix.js';
import { OPERATIONS, servedOperations, urlOf } from './operations.js';
import { idsOf, seedPeople, seedWorld, type World } from './world.js';

/**
 * Walks every cell of the authorization matrix (test/security/authorization-matrix.ts)
 * with a valid request and asserts the exact status and problem code. Destructive calls get a fresh
 * target per cell (test/security/operations.ts); deleting or renaming the workspace runs each cell in
 * a fresh pair of workspaces.
 */

const CODE: Record<number, string> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not-found', 409: 'conflict', 422: 'validation' };

/** Where and as whom each caller sends its request: [host, token]. */
function sender(caller: Caller, home: World, foreign: World): [host: string, token: string | null] {
  switch (caller) {
    case 'anon':
      return [home.ws.host, null];
    case 'user':
      return [home.ws.host, home.user.token];
    case 'outs':
      return [home.ws.host, home.outsider.token];
    case 'pAdm':
      return [home.ws.host, home.projectAdmin.token];
    case 'admin':
      return [home.ws.host, home.admin.token];
    case 'fHost':
      return [foreign.ws.host, foreign.admin.token];
    case 'fTok':
      return [home.ws.host, foreign.admin.token];
  }
}

describeEachStore('Authorization matrix', (h: Harness) => {
  let cellsWalked = 0;
  let home: World;
  let foreign: World;

  beforeAll(async () => {
    home = await seedWorld(h);
    foreign = await seedWorld(h);
  });

  afterAll(() => {
    console.log(`[${h.store}] authorization matrix: ${AUTHORIZATION_MATRIX.length} operations, ${cellsWalked} cells walked`);
  });

  it('names every operation of the served OpenAPI document exactly once, and nothing else', async () => {
    const served = (await servedOperations(h)).sort();
    const inTable = AUTHORIZATION_MATRIX.map((row) => row.operation);
    expect(new Set(inTable).size).toBe(inTable.length);
    expect([...inTable].sort()).toEqual(served);
    expect(Object.keys(OPERATIONS).sort()).toEqual(served);
  });

  it.each(AUTHORIZATION_MATRIX.map((row) => [row.operation, row] as const))('%s', async (_operation, row: MatrixRow) => {
    const failures: string[] = [];
    for (const caller of CALLERS) {
      const [w, f] = WORKSPACE_ENDING.has(row.operation)
        ? [(await seedPeople(h)) as World, (await seedPeople(h)) as World]
        : [home, foreign];
      const call = await OPERATIONS[row.operation](h, w);
      const [host, token] = sender(caller, w, f);
      const res = await h.call(row.method, urlOf(row.path, call.params), {
        host,
        token,
        body: call.body,
        query: call.query,
        payload: call.payload,
        headers: call.headers,
      });
      cellsWalked++;
      const expected = row.expected[caller];
      const cell = `${caller}: expected ${expected}, got ${res.status} ${res.status >= 400 ? res.text : ''}`;
      if (res.status !== expected) {
        failures.push(cell);
        continue;
      }
      if (expected >= 400 && res.body?.code !== CODE[expected]) failures.push(`${caller}: problem code ${res.body?.code}`);
      if (caller === 'fHost' && expected < 400) {
        const leaked = idsOf(w).filter((id) => res.text.includes(id));
        if (leaked.length > 0) failures.push(`${caller}: answer holds this workspace's ids ${leaked.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
