import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real OpenID Connect provider (oidc-provider) in the test process, on a random port of
 * 127.0.0.1, with its development interactions (a login form that takes any account id, then a
 * consent form), driven by plain HTTP requests with a cookie jar, as a browser would.
 */
export interface TestProvider {
  issuer: string;
  /** Accounts by id (`sub`): their email and whether the provider verified it. */
  accounts: Map<string, { email: string; emailVerified: boolean }>;
  /**
   * Follows an authorization URL through login (as `accountId`) and consent, up to the redirect to
   * the client: answers that redirect's URL (the client's callback with code and state).
   */
  authorize(authorizationUrl: string, accountId: string): Promise<URL>;
  /** The next token request of the client is answered with this body instead (then the provider answers again). */
  answerNextTokenRequest(body: Record<string, unknown>): void;
  /** Exchanges a code for tokens as the given client (a test acting as that client). */
  exchange(client: { id: string; secret: string }, code: string, redirectUri: string, verifier: string): Promise<Record<string, any>>;
  close(): Promise<void>;
}

export async function startProvider(clients: { id: string; secret: string; redirectUri: string }[]): Promise<TestProvider> {
  const { default: Provider } = await import('oidc-provider');
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  let nextTokenAnswer: Record<string, unknown> | undefined;
  const server: Server = createServer((req, res) => {
    if (nextTokenAnswer && req.method === 'POST' && req.url?.startsWith('/token')) {
      const body = nextTokenAnswer;
      nextTokenAnswer = undefined;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, { email: string; emailVerified: boolean }>();
  const provider = new Provider(issuer, {
    clients: clients.map((client) => ({
      client_id: client.id,
      client_secret: client.secret,
      redirect_uris: [client.redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile'],
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: account.email, email_verified: account.emailVerified, name: `Person ${id}` }) };
    },
  });
  provider.on('server_error', (_ctx: unknown, error: Error) => console.error('oidc-provider:', error));
  handler = provider.callback();

  async function authorize(authorizationUrl: string, accountId: string): Promise<URL> {
    const jar = new Map<string, string>();
    let url = new URL(authorizationUrl);
    let method = 'GET';
    let body: string | undefined;
    for (let hop = 0; hop < 12; hop++) {
      if (url.origin !== issuer) return url;
      const res = await fetch(url, {
        method,
        redirect: 'manual',
        headers: {
          cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body,
      });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const [name, ...value] = pair.split('=');
        jar.set(name, value.join('='));
      }
      const location = res.headers.get('location');
      if (location) {
        url = new URL(location, url);
        method = 'GET';
        body = undefined;
        continue;
      }
      const page = await res.text();
      if (res.status !== 200 || !url.pathname.startsWith('/interaction/')) throw new Error(`provider answered ${res.status}: ${page.slice(0, 500)}`);
      method = 'POST';
      body = page.includes('name="login"')
        ? new URLSearchParams({ prompt: 'login', login: accountId, password: 'any' }).toString()
        : new URLSearchParams({ prompt: 'consent' }).toString();
    }
    throw new Error('too many redirects at the provider');
  }

  async function exchange(client: { id: string; secret: string }, code: string, redirectUri: string, verifier: string) {
    const res = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }).toString(),
    });
    const answer = (await res.json()) as Record<string, any>;
    if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}: ${JSON.stringify(answer)}`);
    return answer;
  }

  return {
    issuer,
    accounts,
    authorize,
    answerNextTokenRequest: (answer) => {
      nextTokenAnswer = answer;
    },
    exchange,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
