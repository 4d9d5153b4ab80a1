import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type Schemas = components['schemas'];
export type Activity = Schemas['Activity'];
export type Project = Schemas['Project'];
export type Client = Schemas['Client'];
export type Task = Schemas['Task'];
export type Tag = Schemas['Tag'];
export type User = Schemas['User'];
export type Preferences = Schemas['UserPreferences'];
export type Organization = Schemas['Organization'];
/** What the sign-in page shows beyond its forms (GET /auth/providers). */
export type SignInProviders = paths['/auth/providers']['get']['responses'][200]['content']['application/json'];
export type Problem = Schemas['Problem'];

/** Where the person goes when the session is gone, and comes back from (sign-in returns to `next`). */
export function signInPath(next = location.pathname + location.search): string {
  return `/sign-in?next=${encodeURIComponent(next)}`;
}

let leaving = false;
/** Sends the person to sign-in, once: two calls answered 401 at once make one navigation, not two. */
export function goToSignIn(): void {
  if (leaving) return;
  leaving = true;
  location.assign(signInPath());
}

let onSignedOut: (() => void) | null = null;
/** What to do when a call answers 401: the session expired or was ended elsewhere. */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

const sessionWatch: Middleware = {
  onResponse({ response, request }) {
    // The sign-in routes answer 401 for a wrong password or code: that is no lost session.
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/api/auth/')) onSignedOut?.();
    return undefined;
  },
};

/**
 * Every call the app makes goes through this client, typed by the served OpenAPI document. The
 * session is the HttpOnly cookie sign-in set: sent by the browser on same-origin requests, never
 * read by a script.
 */
export const api = createClient<paths>({ baseUrl: `${location.origin}/api`, credentials: 'same-origin' });
api.use(sessionWatch);

/**
 * A call whose body is a file as it is (a CSV export), which the typed client does not send: the
 * same session (the same-origin cookie) and the same watch for a lost one. The caller types the
 * answer by the operation's responses in the generated `paths`.
 */
export async function sendFile(path: keyof paths, query: Record<string, string | undefined>, file: Blob, contentType: string): Promise<Response> {
  const url = new URL(`${location.origin}/api${path}`);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  const response = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': contentType }, body: file });
  if (response.status === 401) onSignedOut?.();
  return response;
}

/** A field's message from a problem's `errors`, by the last part of its pointer (`/body/startedAt` → startedAt). */
export function fieldErrors(problem: Problem | undefined): Record<string, string> {
  const found: Record<string, string> = {};
  for (const error of problem?.errors ?? []) {
    const field = error.pointer.split('/').pop() ?? '';
    found[field] ??= error.message;
  }
  return found;
}

/** The message for one field: its own error, else the conflict's detail when the call was refused with 409 (a name taken). */
export function fieldOrConflict(problem: Problem | undefined, field: string): string | undefined {
  return fieldErrors(problem)[field] ?? (problem?.status === 409 ? problem.detail : undefined);
}

/** A one-line message for a failed call. */
export function problemMessage(problem: Problem | undefined, fallback = 'Something went wrong.'): string {
  return problem?.detail || problem?.title || fallback;
}
