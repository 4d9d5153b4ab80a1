import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../domain/errors.js';
import { resolveWorkspace } from './tenancy.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A catch-all route: the router mirror that finds 405s ignores it (see problems.ts). */
    catchAll?: boolean;
  }
}

/** Where the build (scripts/build-web.mjs) writes the web app: dist/web, beside the compiled server. */
export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

/** Content-hashed file names: a changed file gets a new name, so a name is cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Paths the app never answers: the API, the probes and the metrics keep their own answers, 404 included. */
const NOT_PAGES = /^\/(?:api|healthz|readyz|metrics)(?:\/|$)/;

/**
 * Strict: only this origin's scripts and styles, none inline (the build emits none), no framing,
 * no plugins; fetches go to this origin only. Styles set from scripts (CSSOM) are not inline styles.
 */
const SECURITY_HEADERS = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' as const },
  // A mailed sign-in link carries its token in the address: no page may pass it on.
  referrerPolicy: { policy: 'no-referrer' as const },
  hsts: false,
  global: false,
};

function readPage(name: string): string | null {
  const file = path.join(WEB_ROOT, name);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

function hostnameOf(request: FastifyRequest): string {
  return (request.headers.host ?? '').toLowerCase().replace(/:\d{1,5}$/, '').replace(/\.$/, '');
}

/** Whether the client asks for a page (a browser's navigation sends `Accept: text/html,…`). */
const wantsHtml = (request: FastifyRequest): boolean => /\btext\/html\b/.test(request.headers.accept ?? '');

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page of a host that serves no workspace: what went wrong and where to find one's workspace. */
function noWorkspacePage(findUrl: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>No workspace here · timetrack</title></head>',
    '<body><main>',
    '<h1>No workspace at this address</h1>',
    '<p>No workspace is served at this host: check the address for a typo, or find your workspace with your email address.</p>',
    `<p><a href="${escapeHtml(findUrl)}">Find your workspace</a></p>`,
    '</main></body>',
    '</html>',
  ].join('\n');
}

/**
 * The web app (web/, built into dist/web): a workspace host answers the app for every GET outside
 * /api, /healthz and /readyz (the app routes in the browser), the bare BASE_DOMAIN host answers the
 * "find your workspace" page, any other host is 404 as under /api. Hashed assets are cached for good,
 * pages never (`no-cache`: revalidated, so a new build is seen at once).
 */
export async function webApp(app: FastifyInstance): Promise<void> {
  await app.register(helmet, SECURITY_HEADERS);
  const pages = { app: readPage('index.html'), welcome: readPage('welcome.html') };

  await app.register(fastifyStatic, {
    root: path.join(WEB_ROOT, 'assets'),
    prefix: '/assets/',
    index: false,
    cacheControl: false,
    etag: false,
    lastModified: false,
    // The build writes a .br and a .gz beside each asset.
    preCompressed: true,
    setHeaders: (response) => {
      response.setHeader('cache-control', IMMUTABLE);
      // The same name answers a .br, a .gz or the plain file by Accept-Encoding: a cache must keep them apart.
      response.setHeader('vary', 'Accept-Encoding');
    },
    // The directory may not exist before the first build; requests under /assets/ are then 404.
    allowedPath: () => pages.app !== null,
  });

  const answerPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0];
    if (NOT_PAGES.test(pathname)) return reply.callNotFound();
    let page: string | null;
    if (hostnameOf(request) === app.config.baseDomain) page = pages.welcome;
    else {
      try {
        await resolveWorkspace(app, request);
      } catch (error) {
        // A person who typed a wrong address gets a page saying so, a client its problem.
        if (!(error instanceof ApiError && error.code === 'workspace-not-found' && wantsHtml(request))) throw error;
        reply.helmet();
        return reply.code(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(noWorkspacePage(app.config.publicUrl));
      }
      page = pages.app;
    }
    if (page === null) throw new ApiError('not-found', 'The web app is not built: run `npm run build`.');
    reply.helmet();
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  };
  const options = { schema: { hide: true }, config: { catchAll: true } };
  app.get('/', options, answerPage);
  app.get('/*', options, answerPage);
}
