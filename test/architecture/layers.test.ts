import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The layers and the absence of cycles are held by `npm run lint` (eslint.config.js); these cases lint
 * a file that is not on disk, under a path of the tree, to show each rule refuses what it is for.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function problemsOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((message) => message.ruleId ?? message.message);
}

describe('the import layers', () => {
  it('lint refuses an import cycle (the kernel importing an area that imports it)', async () => {
    const problems = await problemsOf('src/domain/errors.ts', "import { geofence } from '../areas/geofences/service.js';\nexport const x = geofence;\n");
    expect(problems).toContain('import-x/no-cycle');
  });

  it('lint refuses an area importing the HTTP pipeline', async () => {
    const problems = await problemsOf('src/areas/geofences/extra.ts', "import { tenancy } from '../../http/tenancy.js';\nexport const x = tenancy;\n");
    expect(problems).toContain('import-x/no-restricted-paths');
  });

  it('lint refuses lib importing an area, even through its face', async () => {
    const problems = await problemsOf('src/lib/extra.ts', "import { createWorkspace } from '../areas/workspace/index.js';\nexport const x = createWorkspace;\n");
    expect(problems).toContain('import-x/no-restricted-paths');
  });

  it('lint refuses the route kit importing the data layer', async () => {
    const problems = await problemsOf('src/route-kit/extra.ts', "import { openStore } from '../db/database.js';\nexport const x = openStore;\n");
    expect(problems).toContain('import-x/no-restricted-paths');
  });

  it("lint refuses an area reaching into another area's files instead of its face", async () => {
    const problems = await problemsOf('src/areas/geofences/extra.ts', "import { createUser } from '../users/repository.js';\nexport const x = createUser;\n");
    expect(problems).toContain('no-restricted-imports');
  });

  it("lint refuses an area's face handing on its repository instead of a use case", async () => {
    for (const code of ["export { listMessages } from './repository.js';\n", "export * from './repository.js';\n", "import { listOutbox } from './repository.js';\nexport const listMessages = listOutbox;\n"]) {
      expect(await problemsOf('src/areas/mail/index.ts', code), code).toContain('no-restricted-syntax');
    }
    expect(await problemsOf('src/areas/mail/index.ts', "export { listMessages } from './service.js';\n")).toEqual([]);
  });

  it("lint refuses a sub-folder of an area reaching into another area's files, at any depth", async () => {
    const one = await problemsOf('src/areas/access/sessions/extra.ts', "import { createUser } from '../../users/repository.js';\nexport const x = createUser;\n");
    const two = await problemsOf('src/areas/access/sign-in/link/extra.ts', "import { createUser } from '../../../users/repository.js';\nexport const x = createUser;\n");
    expect(one).toContain('no-restricted-imports');
    expect(two).toContain('no-restricted-imports');
  });

  it('lint accepts a sub-folder of an area importing a sibling folder of its own area and another area’s face', async () => {
    const problems = await problemsOf(
      'src/areas/access/sign-in/link/extra.ts',
      "import { contextOf } from '../sign-in-context.js';\nimport { recordChange } from '../../../changes/index.js';\nexport const x = [contextOf, recordChange];\n",
    );
    expect(problems).toEqual([]);
  });

  it("lint refuses a job's folder of an area reaching into another job's files, and accepts that job's index.ts", async () => {
    const repository = "import { insertSession } from '../../sessions/session-repository.js';\nexport const x = insertSession;\n";
    const service = "import { beginSession } from '../../sessions/session-service.js';\nexport const x = beginSession;\n";
    const face = "import { beginSession } from '../../sessions/index.js';\nexport const x = beginSession;\n";
    expect(await problemsOf('src/areas/access/sign-in/password/extra.ts', repository)).toContain('no-restricted-syntax');
    expect(await problemsOf('src/areas/access/support/extra.ts', "import { insertOneTimeToken } from '../sign-in/link/one-time-token-repository.js';\nexport const x = insertOneTimeToken;\n")).toContain('no-restricted-syntax');
    expect(await problemsOf('src/areas/access/sign-in/password/extra.ts', service)).toContain('no-restricted-imports');
    expect(await problemsOf('src/areas/access/sign-in/password/extra.ts', face)).toEqual([]);
    expect(await problemsOf('src/areas/access/sign-in/two-factor/extra.ts', "import { findSignInSettings } from '../sign-in-settings-repository.js';\nexport const x = findSignInSettings;\n")).toEqual([]);
  });

  it('lint refuses SQL in a service, a rule or a route of an area, and accepts it in a repository', async () => {
    const builds = "import type { Db } from '../../db/database.js';\nexport const x = (db: Db) => db.selectFrom('geofences').selectAll().execute();\n";
    const tagged = "import { sql } from 'kysely';\nexport const x = sql`select 1`;\n";
    expect(await problemsOf('src/areas/geofences/service.ts', builds)).toContain('no-restricted-properties');
    expect(await problemsOf('src/areas/geofences/rules.ts', tagged)).toContain('@typescript-eslint/no-restricted-imports');
    expect(await problemsOf('src/areas/access/sessions/session-service.ts', builds)).toContain('no-restricted-properties');
    expect(await problemsOf('src/areas/geofences/repository.ts', builds)).toEqual([]);
    expect(await problemsOf('src/areas/geofences/repository.ts', tagged)).toEqual([]);
    expect(await problemsOf('src/areas/geofences/service.ts', "import type { Selectable } from 'kysely';\nexport type X = Selectable<{ a: string }>;\n")).toEqual([]);
  });

  it('lint accepts an area importing the route kit, the kernel and another area’s face', async () => {
    const problems = await problemsOf(
      'src/areas/geofences/extra.ts',
      "import { Id } from '../../route-kit/schemas.js';\nimport { notFound } from '../../domain/errors.js';\nimport { recordChange } from '../changes/index.js';\nexport const x = [Id, notFound, recordChange];\n",
    );
    expect(problems).toEqual([]);
  });
});
