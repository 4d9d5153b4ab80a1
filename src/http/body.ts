import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { ApiError } from './errors.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Bodies are JSON only (anything else is 415). An empty body reads as no body, so routes without
 * one accept `Content-Type: application/json` with nothing after it; prototype-polluting keys are dropped.
 */
export const jsonBodies = fp(async (app: FastifyInstance) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      const text = body as string;
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }));
      } catch {
        done(new ApiError('bad-request', 'The body is not valid JSON.'), undefined);
      }
    },
  );
});
