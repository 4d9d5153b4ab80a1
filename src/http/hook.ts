import type { FastifyReply, FastifyRequest, onSendHookHandler, RouteOptions } from 'fastify';

export type HookDone = (error?: Error) => void;

/** A Fastify hook in callback form (onRequest, preValidation, …). */
export type CallbackHook = (request: FastifyRequest, reply: FastifyReply, done: HookDone) => void;

/**
 * A hook from work that finishes at once when it can and returns a promise only when it must wait (a
 * cache miss, a write). An async hook costs a promise and a turn of the microtask queue on every
 * request even when it awaits nothing; this one costs them only when the work does wait.
 */
export function hookOf(work: (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>): CallbackHook {
  return (request, reply, done) => {
    let waiting: void | Promise<void>;
    try {
      waiting = work(request, reply);
    } catch (error) {
      return done(error as Error);
    }
    if (waiting === undefined) return done();
    waiting.then(() => done(), done);
  };
}

type RouteHookName = 'onRequest' | 'preValidation' | 'preHandler' | 'onSend';

/** In an onRoute hook: adds a hook to the route being registered, after the ones it has. */
export function appendRouteHook(route: RouteOptions, name: RouteHookName, hook: CallbackHook | onSendHookHandler): void {
  const current: unknown = route[name];
  const existing = current === undefined ? [] : Array.isArray(current) ? current : [current];
  (route as unknown as Record<RouteHookName, unknown>)[name] = [...existing, hook];
}
