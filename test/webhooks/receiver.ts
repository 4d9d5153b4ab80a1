import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  eventId: string;
  /** Which connection it came on: connections are numbered 1, 2, … as the receiver accepts them. */
  connection: number;
}

export type Answer = (received: Received, response: http.ServerResponse) => void;

export interface Receiver {
  port: number;
  url(path?: string): string;
  received: Received[];
  /** How each request is answered; 204 unless set. */
  answer: Answer;
  close(): Promise<void>;
}

/** A local HTTP receiver that records every delivery (raw body and headers) and answers as told. */
export async function startReceiver(): Promise<Receiver> {
  const receiver = {
    received: [] as Received[],
    answer: ((_received, response) => {
      response.writeHead(204).end();
    }) as Answer,
  } as Receiver;
  const connections = new WeakMap<object, number>();
  let accepted = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: Received = {
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        eventId: String(request.headers['timetrack-event-id'] ?? ''),
        connection: connections.get(request.socket)!,
      };
      receiver.received.push(received);
      receiver.answer(received, response);
    });
  });
  server.on('connection', (socket) => connections.set(socket, ++accepted));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = (path = '/hook') => `http://127.0.0.1:${receiver.port}${path}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** A receiver started before the suite's tests and closed after them: call the result for it. */
export function suiteReceiver(): () => Receiver {
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  return () => receiver!;
}
