// The ceiling: a bare node:http server answering a pre-serialized JSON body of a requested size.
// GET or POST /<bytes> answers <bytes> bytes of JSON (a record padded to that size), after reading
// any request body, with the content type the service sends. Prints its port once it listens.
import http from 'node:http';
import process from 'node:process';
import { Buffer } from 'node:buffer';

const bodies = new Map();

function bodyOf(size) {
  let body = bodies.get(size);
  if (body === undefined) {
    const record = { id: '0190f5b2-6a3e-7c4d-8e9f-0a1b2c3d4e5f', name: '', billable: true, startedAt: '2026-07-04T09:00:00.000Z' };
    const bare = Buffer.byteLength(JSON.stringify(record));
    record.name = 'x'.repeat(Math.max(0, size - bare));
    body = Buffer.from(JSON.stringify(record));
    bodies.set(size, body);
  }
  return body;
}

const server = http.createServer((req, res) => {
  const size = Number(req.url.slice(1)) || 200;
  const respond = () => {
    const body = bodyOf(size);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  };
  if (req.method === 'GET') respond();
  else {
    req.resume();
    req.on('end', respond);
  }
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
