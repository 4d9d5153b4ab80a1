import net from 'node:net';
import { afterEach, beforeAll } from 'vitest';
import type { Harness, TestWorkspace } from './harness.js';
import { othersInFlight } from './src.js';

/**
 * The suite's app listening on a port of its own (`server.port`, once it listens), and the sockets
 * its tests leave `open`, destroyed after each test.
 */
export function listening(h: Harness): { server: { port: number }; open: net.Socket[] } {
  const server = { port: 0 };
  const open: net.Socket[] = [];
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    server.port = (h.app.server.address() as net.AddressInfo).port;
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.destroy();
  });
  return { server, open };
}

/** A request the server is serving until the socket is destroyed: a POST whose headers are sent and whose body never comes. */
export function heldRequest(port: number, ws: TestWorkspace, token: string): net.Socket {
  const held = net.connect(port, '127.0.0.1', () =>
    held.write(`POST /api/activities HTTP/1.1\r\nHost: ${ws.host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`),
  );
  held.on('error', () => undefined);
  return held;
}

/** Until the server counts this many requests in flight besides the long listings (a request is counted once its route's hooks run). */
export async function untilOthersInFlight(count: number): Promise<void> {
  for (let attempt = 0; othersInFlight() !== count; attempt++) {
    if (attempt === 500) throw new Error(`others in flight: ${othersInFlight()}, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
