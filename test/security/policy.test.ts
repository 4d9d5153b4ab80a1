import { expect, it } from 'vitest';
import { describeEachStore, type Harness } from '../support/harness.js';
import { holdsPermission, scopesOfPermission, type PolicyPermission } from '../support/src.js';
import { AUTHORIZATION_MATRIX } from './authorization-matrix.js';

/**
 * The policy (src/domain/policy.ts) and the authorization matrix (./authorization-matrix.ts) are two
 * tables of the same rules: the first is what the code asks, the second what the tests walk. Each
 * operation of the served document names its permission (`x-permission`); these checks hold the two
 * tables to each other where the role alone decides.
 */

interface Operation {
  operation: string;
  permission: PolicyPermission | undefined;
  isPublic: boolean;
}

async function documentedOperations(h: Harness): Promise<Operation[]> {
  const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      operations.push({
        operation: `${method.toUpperCase()} ${path}`,
        permission: operation['x-permission'],
        isPublic: Array.isArray(operation.security) && operation.security.length === 0,
      });
    }
  }
  return operations;
}

const USER_COLUMNS = ['user', 'outs', 'pAdm'] as const;

describeEachStore('Policy', (h: Harness) => {
  it('every operation that takes a token names the permission it needs, and public ones name none', async () => {
    const operations = await documentedOperations(h);
    expect(operations.filter((op) => !op.isPublic && op.permission === undefined).map((op) => op.operation)).toEqual([]);
    expect(operations.filter((op) => op.isPublic && op.permission !== undefined).map((op) => op.operation)).toEqual([]);
  });

  it('agrees with the authorization matrix: a permission no User holds is 403 for every User, and one administrators hold over all records lets the administrator through', async () => {
    const permissions = new Map((await documentedOperations(h)).map((op) => [op.operation, op.permission]));
    const disagreements: string[] = [];
    for (const row of AUTHORIZATION_MATRIX) {
      const permission = permissions.get(row.operation);
      if (permission === undefined) continue;
      if (!holdsPermission('User', permission)) {
        for (const column of USER_COLUMNS) {
          if (row.expected[column] !== 403) disagreements.push(`${row.operation} (${permission}): ${column} is ${row.expected[column]}, the policy says 403`);
        }
      }
      if (scopesOfPermission('Administrator', permission).includes('all') && row.expected.admin >= 400) {
        disagreements.push(`${row.operation} (${permission}): admin is ${row.expected.admin}, the policy reaches every record`);
      }
      if (!holdsPermission('Administrator', permission) && row.expected.admin !== 403) {
        disagreements.push(`${row.operation} (${permission}): admin is ${row.expected.admin}, the policy says 403`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});
