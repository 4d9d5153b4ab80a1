import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../support/harness.js';
import { activityAnswer } from '../support/tracking.js';

/*
 * The generated client is a first-class consumer of the document (it is what the web app uses): its
 * types are generated with openapi-typescript from GET /api/openapi.json as served, a short workflow
 * written against them must type-check under strict TypeScript (and calls the types forbid must not),
 * and the same workflow runs through openapi-fetch against a real listening server.
 */

const REPO = resolve(import.meta.dirname, '../..');

/** The workflow a client runs: create a project, start a timer on it, stop it, list activities. Named input types come from the document's `<OperationId>Body` components. */
const WORKFLOW = `
import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type CreateProject = components['schemas']['CreateProjectBody'];
type StartActivity = components['schemas']['CreateActivityBody'];
type ChangeActivity = components['schemas']['UpdateActivityBody'];
type Activity = components['schemas']['Activity'];

export async function workflow(baseUrl: string, token: string, fetch: (request: Request) => Promise<Response>) {
  const client = createClient<paths>({ baseUrl, fetch, headers: { authorization: \`Bearer \${token}\` } });
  const newProject: CreateProject = { name: 'Generated client', billable: true };
  const project = await client.POST('/projects', { body: newProject });
  if (!project.data) throw new Error(\`createProject: \${project.response.status}\`);
  const start: StartActivity = { name: 'Writing', startedAt: '2026-03-02T09:00:00+01:00', pending: true, projectId: project.data.id };
  const timer = await client.POST('/activities', { body: start });
  if (!timer.data) throw new Error(\`createActivity: \${timer.response.status}\`);
  const running: Activity = timer.data;
  const stop: ChangeActivity = { endedAt: '2026-03-02T10:30:00Z' };
  const stopped = await client.PUT('/activities/{activityId}', { params: { path: { activityId: running.id } }, body: stop });
  if (!stopped.data) throw new Error(\`updateActivity: \${stopped.response.status}\`);
  const listed = await client.GET('/activities', { params: { query: { projectId: project.data.id } } });
  if (!listed.data) throw new Error(\`listActivities: \${listed.response.status}\`);
  const unknown = await client.GET('/projects/{projectId}', { params: { path: { projectId: 'no-such-project' } } });
  return {
    projectId: project.data.id,
    running,
    stopped: stopped.data,
    listed: listed.data,
    missing: { status: unknown.response.status, code: unknown.error?.code, requestId: unknown.response.headers.get('x-request-id') },
  };
}
`;

/** Calls the generated types must reject: each @ts-expect-error fails the check if the types let its line through. */
const REJECTED = `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

const client = createClient<paths>({ baseUrl: 'http://localhost/api' });
// @ts-expect-error a project needs a name
void client.POST('/projects', { body: { billable: true } });
// @ts-expect-error pending is a boolean
void client.POST('/activities', { body: { name: 'x', startedAt: '2026-01-01T00:00:00Z', pending: 'yes' } });
// @ts-expect-error no such path
void client.GET('/timers');
// @ts-expect-error the activity id is a path parameter
void client.PUT('/activities/{activityId}', { body: {} });
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    verbatimModuleSyntax: true,
  },
  files: ['api.ts', 'workflow.ts', 'rejected.ts'],
};

/** A fetch for openapi-fetch that reaches the listening server on 127.0.0.1 with the workspace's Host header (its name resolves nowhere). */
const fetchAs = (port: number, host: string) => async (request: Request): Promise<Response> => {
  const url = new URL(request.url);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = { ...Object.fromEntries(request.headers), host };
  return new Promise((done, fail) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: request.method, path: url.pathname + url.search, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') answer.set(name, value);
        done(new Response(chunks.length ? Buffer.concat(chunks) : null, { status: incoming.statusCode, headers: answer }));
      });
      incoming.on('error', fail);
    });
    outgoing.on('error', fail);
    outgoing.end(body);
  });
};

describeEachStore('Generated client (openapi-typescript + openapi-fetch)', (h) => {
  let dir: string;
  let port: number;

  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as AddressInfo).port;
    dir = await mkdtemp(join(tmpdir(), 'timetrack-client-'));
    await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const doc = (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;
    await writeFile(join(dir, 'api.ts'), astToString(await openapiTS(doc)));
    await writeFile(join(dir, 'workflow.ts'), WORKFLOW);
    await writeFile(join(dir, 'rejected.ts'), REJECTED);
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('types generated from the served document name every request body and type-check a workflow under strict TypeScript, rejecting calls the document forbids', { timeout: 120_000 }, async () => {
    const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
    );
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  it('a workflow through openapi-fetch against a listening server: create a project, start a timer, stop it, list activities', async () => {
    const ws = await h.workspace();
    const { workflow } = await import(pathToFileURL(join(dir, 'workflow.ts')).href);
    const result = await workflow(`http://${ws.host}/api`, ws.admin.token, fetchAs(port, ws.host));
    expect(result.running).toEqual(
      activityAnswer({
        id: expect.any(String),
        name: 'Writing',
        billable: true,
        startedAt: '2026-03-02T08:00:00.000Z',
        endedAt: null,
        projectId: result.projectId,
        userId: ws.admin.userId,
      }),
    );
    expect(result.stopped).toEqual({ ...result.running, endedAt: '2026-03-02T10:30:00.000Z' });
    expect(result.listed).toEqual({ [result.running.id]: result.stopped });
    expect(result.missing).toEqual({ status: 404, code: 'not-found', requestId: expect.any(String) });
  });
});
