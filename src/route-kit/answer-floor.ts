import type { FastifyReply } from 'fastify';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Holds an answer until `floorMs` after the request arrived: an answer that must not tell whether
 * an address is known (docs/rules.md §7 No enumeration) takes the same time whether work was done
 * for it (a token stored, a message queued) or not.
 */
export async function answerNoSoonerThan(reply: FastifyReply, floorMs: number): Promise<void> {
  const wait = floorMs - reply.elapsedTime;
  if (wait > 0) await delay(wait);
}
