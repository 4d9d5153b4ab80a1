import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { workspaceOrigin } from '../../../../config.js';
import type { Actor, Workspace } from '../../../../domain/actor.js';
import { ApiError } from '../../../../domain/errors.js';
import { answerNoSoonerThan } from '../../../../route-kit/answer-floor.js';
import { setSessionCookie } from '../../../../route-kit/session-cookie.js';
import '../../../../route-kit/workspace-of.js';
import { needsSecondFactor } from '../sign-in-flow.js';
import { requestLink } from './link-service.js';
import { oneTimePurpose, redeemOneTimeSignIn } from './one-time-sign-in-service.js';
import { assertPasswordLength, changePassword, PASSWORD_MAX, PASSWORD_MIN, signInWithPassword } from '../password/index.js';
import type { OneTimePurpose } from './one-time-token-repository.js';
import { contextOf } from '../sign-in-context.js';
import { verifySecondFactor } from '../two-factor/index.js';

/*
 * The form-taking routes behind the pages mailed links open (docs/rules.md §7 Link pages). The web
 * app answers GET / and GET /auth/one-time (src/http/web-app.ts) and redeems through the API; these
 * routes still take the plain forms below, for clients without scripts. A link never signs in on a
 * GET: its page shows a button.
 */

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const FORM_BODY_BYTES = 16 * 1024;

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    })
    .send(
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escape(title)} · timetrack</title>` +
        '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}' +
        'input,button{font:inherit;padding:.4rem;margin:.2rem 0}label{display:block;margin-top:.8rem}</style>' +
        `</head><body><h1>${escape(title)}</h1>${body}</body></html>\n`,
    );
}

const emailLinkForm = (): string =>
  '<form method="post" action="/auth/email-link"><label for="link-email">Email</label>' +
  '<input id="link-email" name="email" type="email" autocomplete="email" required maxlength="254">' +
  '<button type="submit">Email me a sign-in link</button></form>';

const passwordForm = (): string =>
  '<form method="post" action="/auth/sign-in"><label for="email">Email</label>' +
  '<input id="email" name="email" type="email" autocomplete="username" required maxlength="254">' +
  '<label for="password">Password</label>' +
  `<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="${PASSWORD_MAX}">` +
  '<button type="submit">Sign in</button></form>';

/** The second step of a sign-in of an account with two-factor codes on (docs/rules.md §8). */
const codeForm = (challenge: string): string =>
  '<form method="post" action="/auth/two-factor"><p>This account uses two-factor codes.</p>' +
  `<input type="hidden" name="challenge" value="${escape(challenge)}">` +
  '<label for="code">Code from your authenticator app</label>' +
  '<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required pattern="[0-9]{6}" maxlength="6">' +
  '<button type="submit">Verify</button></form>';

const codePage = (reply: FastifyReply, workspace: Workspace, challenge: string, problem?: string) =>
  page(reply, problem ? 401 : 200, `Sign in to ${workspace.domain}`, (problem ? `<p role="alert">${escape(problem)}</p>` : '') + codeForm(challenge));

const newPasswordField = (): string =>
  '<label for="new-password">New password</label>' +
  `<input id="new-password" name="newPassword" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}">`;

const BUTTON: Record<OneTimePurpose, string> = {
  support: 'Sign in as support',
  'sign-in': 'Sign in',
  invitation: 'Accept the invitation and sign in',
  'password-reset': 'Set the new password and sign in',
};

function linkPage(reply: FastifyReply, workspace: Workspace, token: string, purpose: OneTimePurpose, problem?: string): FastifyReply {
  return page(
    reply,
    problem ? 422 : 200,
    `Sign in to ${workspace.domain}`,
    (problem ? `<p role="alert">${escape(problem)}</p>` : '') +
      `<form method="post" action="/auth/one-time"><input type="hidden" name="token" value="${escape(token)}">` +
      (purpose === 'password-reset' ? newPasswordField() : '') +
      `<button type="submit">${BUTTON[purpose]}</button></form>`,
  );
}

const deadLinkPage = (reply: FastifyReply, workspace: Workspace, status: number) =>
  page(
    reply,
    status,
    `Sign in to ${workspace.domain}`,
    '<p>This link has been used, has expired, or is not a link of this workspace.</p>' + emailLinkForm(),
  );

/** The workspace of the host (404 problem for a host that selects none). */
const workspaceOf = async (app: FastifyInstance, request: FastifyRequest): Promise<Workspace> => app.workspaceOf(request);

/** A form post must come from the workspace's own pages (login CSRF): the browser's Origin says so. */
function fromOwnPage(app: FastifyInstance, request: FastifyRequest, workspace: Workspace): boolean {
  const site = request.headers['sec-fetch-site'];
  return request.headers.origin === workspaceOrigin(app.config, workspace.domain) && (site === undefined || site === 'same-origin');
}

const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

const signedInRedirect = (reply: FastifyReply) => reply.code(303).header('location', '/').header('cache-control', 'no-store').send();

export const linkPages: FastifyPluginAsync = async (app) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_BYTES }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post('/auth/one-time', { schema: { hide: true } }, async (request, reply) => {
    const workspace = await workspaceOf(app, request);
    if (!fromOwnPage(app, request, workspace)) return page(reply, 403, 'Not from this workspace', '<p>This form must be sent from its own page.</p>');
    const token = field(request.body, 'token');
    const purpose = await oneTimePurpose(app.db, workspace, token);
    if (!purpose) return deadLinkPage(reply, workspace, 401);
    const newPassword = field(request.body, 'newPassword');
    if (purpose === 'password-reset') {
      try {
        assertPasswordLength(newPassword, '/body/newPassword');
      } catch (error) {
        return linkPage(reply, workspace, token, purpose, `The new password ${(error as ApiError).errors?.[0]?.message ?? 'is not valid'}.`);
      }
    }
    let session;
    try {
      session = await redeemOneTimeSignIn(app.db, app.config, workspace, token, contextOf(request));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'unauthorized') return deadLinkPage(reply, workspace, 401);
      throw error;
    }
    // A reset of an account with two-factor codes on keeps its old password until a code is given
    // and the person sets it again from the signed-in app (docs/rules.md §8).
    if (needsSecondFactor(session)) return codePage(reply, workspace, session.challenge);
    if (purpose === 'password-reset') {
      const actor = { organizationId: workspace.id, accountId: session.accountId, email: session.email, sessionId: session.sessionId } as Actor;
      await changePassword(app.db, app.signInFailures, actor, { newPassword }, contextOf(request));
    }
    setSessionCookie(reply, app.config, session);
    return signedInRedirect(reply);
  });

  app.post('/auth/email-link', { schema: { hide: true } }, async (request, reply) => {
    const workspace = await workspaceOf(app, request);
    if (!fromOwnPage(app, request, workspace)) return page(reply, 403, 'Not from this workspace', '<p>This form must be sent from its own page.</p>');
    try {
      await requestLink(app.db, app.config, workspace, field(request.body, 'email'), 'sign-in');
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'validation')) throw error;
    }
    await answerNoSoonerThan(reply, app.config.enumerationFloorMs);
    return page(reply, 200, 'Check your mail', '<p>If this address belongs to the workspace, a sign-in link is on its way. It works once, within 15 minutes.</p>');
  });

  app.post('/auth/sign-in', { schema: { hide: true } }, async (request, reply) => {
    const workspace = await workspaceOf(app, request);
    if (!fromOwnPage(app, request, workspace)) return page(reply, 403, 'Not from this workspace', '<p>This form must be sent from its own page.</p>');
    try {
      const body = { email: field(request.body, 'email').slice(0, 254), password: field(request.body, 'password').slice(0, 1024) };
      const session = await signInWithPassword(app.db, app.config, app.signInFailures, workspace, body, contextOf(request));
      if (needsSecondFactor(session)) return codePage(reply, workspace, session.challenge);
      setSessionCookie(reply, app.config, session);
      return signedInRedirect(reply);
    } catch (error) {
      if (!(error instanceof ApiError) || (error.code !== 'unauthorized' && error.code !== 'rate-limited')) throw error;
      const status = error.status;
      if (error.headers['retry-after']) reply.header('retry-after', error.headers['retry-after']);
      return page(reply, status, `Sign in to ${workspace.domain}`, `<p role="alert">${escape(error.detail)}</p>` + passwordForm() + emailLinkForm());
    }
  });

  app.post('/auth/two-factor', { schema: { hide: true } }, async (request, reply) => {
    const workspace = await workspaceOf(app, request);
    if (!fromOwnPage(app, request, workspace)) return page(reply, 403, 'Not from this workspace', '<p>This form must be sent from its own page.</p>');
    const challenge = field(request.body, 'challenge').slice(0, 100);
    const code = field(request.body, 'code').slice(0, 6);
    try {
      const session = await verifySecondFactor(app.db, app.config, workspace, { challenge, code }, contextOf(request));
      setSessionCookie(reply, app.config, session);
      return signedInRedirect(reply);
    } catch (error) {
      if (!(error instanceof ApiError) || !['unauthorized', 'rate-limited', 'validation'].includes(error.code)) throw error;
      if (error.headers['retry-after']) reply.header('retry-after', error.headers['retry-after']);
      return codePage(reply, workspace, challenge, error.detail);
    }
  });
};
