// The generator's reach: a server that answers every request on a connection with one canned HTTP
// answer, counting requests by their blank line, without parsing HTTP. Nothing answers faster on
// this machine, so what the load generator reaches against it is the most it can drive; a ceiling
// well below that is the bare server's limit, not the generator's. Prints its port once it listens.
import net from 'node:net';
import process from 'node:process';
import { Buffer } from 'node:buffer';

const body = Buffer.from(JSON.stringify({ id: '0190f5b2-6a3e-7c4d-8e9f-0a1b2c3d4e5f', name: 'x'.repeat(160) }));
const answer = Buffer.concat([
  Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${body.length}\r\nkeep-alive: timeout=5\r\n\r\n`),
  body,
]);

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  let tail = '';
  socket.on('data', (chunk) => {
    const text = tail + chunk.toString('latin1');
    let count = 0;
    let at = 0;
    for (let i = text.indexOf('\r\n\r\n'); i >= 0; i = text.indexOf('\r\n\r\n', at)) {
      count++;
      at = i + 4;
    }
    tail = text.slice(at);
    if (count > 0) socket.write(count === 1 ? answer : Buffer.concat(Array(count).fill(answer)));
  });
  socket.on('error', () => {});
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
// Open keep-alive connections would hold server.close() open: the process simply ends.
process.on('SIGTERM', () => process.exit(0));
