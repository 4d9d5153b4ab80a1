import { expect, it } from 'vitest';
import { as, describeEachStore } from '../support/harness.js';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

const linesOf = (logs: string[], reqId: string): LogLine[] =>
  logs.map((line) => JSON.parse(line) as LogLine).filter((line) => line.reqId === reqId);

describeEachStore('Access log', (h) => {
  it('each answered request writes exactly one info line: method, route pattern, status, time, workspace and request id', async () => {
    const ws = await h.workspace();
    const project = await as(h, ws).post('/api/projects', { name: 'Logged' });
    const res = await as(h, ws).get(`/api/projects/${project.body.id}`, undefined, { headers: { 'x-request-id': 'access-log-one' } });
    expect(res.status).toBe(200);
    const lines = linesOf(h.logs, 'access-log-one');
    expect(lines).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        pid: expect.any(Number),
        hostname: expect.any(String),
        reqId: 'access-log-one',
        method: 'GET',
        route: '/api/projects/:projectId',
        status: 200,
        ms: expect.any(Number),
        workspace: ws.domain,
        msg: 'request',
      },
    ]);
  });

  it('the access line is written in pino\'s own line format: its fields in pino\'s order, one JSON object a line', async () => {
    const ws = await h.workspace();
    await as(h, ws).get('/api/organization', undefined, { headers: { 'x-request-id': 'access-log-shape' } });
    const [text] = h.logs.filter((chunk) => chunk.includes('"reqId":"access-log-shape"'));
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(2);
    expect(Object.keys(JSON.parse(text))).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'route', 'status', 'ms', 'workspace', 'msg']);
    // The bound fields come first, as pino puts them in every line of the request's logger.
    h.app.log.info({ reqId: 'access-log-shape-pino' }, 'request');
    const [pinoLine] = h.logs.filter((chunk) => chunk.includes('access-log-shape-pino'));
    expect(Object.keys(JSON.parse(pinoLine)).slice(0, 4)).toEqual(['level', 'time', 'pid', 'hostname']);
  });

  it('the access line names the route pattern, never the URL: ids, query values and tokens in the URL stay out of the log', async () => {
    const ws = await h.workspace();
    const res = await as(h, ws).get('/api/activities', undefined, {
      headers: { 'x-request-id': 'access-log-query' },
      query: { projectIds: 'secret-looking-value', token: ws.admin.token },
    });
    expect(res.status).not.toBe(500);
    const [line] = linesOf(h.logs, 'access-log-query');
    expect(line.route).toBe('/api/activities');
    expect(JSON.stringify(line)).not.toContain('secret-looking-value');
    expect(JSON.stringify(line)).not.toContain(ws.admin.token);
  });

  it('a request that matches no route is logged with a null route and its status; one to an unknown host with a null workspace', async () => {
    const ws = await h.workspace();
    await h.call('GET', '/api/no-such-route', { host: ws.host, headers: { 'x-request-id': 'access-log-404' } });
    expect(linesOf(h.logs, 'access-log-404')).toEqual([expect.objectContaining({ msg: 'request', route: null, status: 404 })]);
    await h.call('GET', '/api/organization', { host: 'nobody.timetrack.test', headers: { 'x-request-id': 'access-log-host' } });
    expect(linesOf(h.logs, 'access-log-host')).toEqual([
      expect.objectContaining({ msg: 'request', route: '/api/organization', status: 404, workspace: null }),
    ]);
  });
});

describeEachStore(
  'Access log at LOG_LEVEL=warn',
  (h) => {
    it('writes no access line', async () => {
      const ws = await h.workspace();
      const res = await as(h, ws).get('/api/organization', undefined, { headers: { 'x-request-id': 'access-log-warn' } });
      expect(res.status).toBe(200);
      expect(h.logs.filter((chunk) => chunk.includes('access-log-warn'))).toEqual([]);
    });
  },
  { logLevel: 'warn' },
);
