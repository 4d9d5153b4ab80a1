import { isIP } from 'node:net';

/** Everything the operator can set, read once from the environment (docs/rules.md §1). */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  baseDomain: string;
  publicUrl: string;
  bootstrap: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * Where support mail goes (the one-time sign-in link of a resolved impersonation request): env
   * SUPPORT_EMAIL. Unset: `support@<BASE_DOMAIN>` (see supportAddress).
   */
  supportEmail?: string;
  logLevel: string;
  /** Lifetime of a session access token, in seconds (docs/rules.md §7 Sessions). */
  sessionTtlSeconds: number;
  /** A person's session unused this long ends (env SESSION_IDLE_TIMEOUT_SECONDS, default 2 h; docs/rules.md §7 Sessions). */
  sessionIdleSeconds: number;
  /**
   * Failed password sign-ins allowed per account and per client address in `windowSeconds`
   * (env SIGN_IN_FAILURES_PER_ACCOUNT 10, SIGN_IN_FAILURES_PER_ADDRESS 50, SIGN_IN_LOCKOUT_SECONDS 900);
   * beyond either, sign-ins there are 429 until the window ends (docs/rules.md §7 Lockout).
   */
  signInLockout: { perAccount: number; perAddress: number; windowSeconds: number };
  /** Password checks a client address may ask for in a minute, right or wrong (docs/rules.md §7 Lockout). */
  signInAttemptsPerAddressPerMinute: number;
  /** Single sign-on starts a client address may make in a minute (env OIDC_STARTS_PER_ADDRESS; docs/rules.md §8 Single sign-on). */
  oidcStartsPerAddressPerMinute: number;
  /**
   * The answers that must not tell whether an address is known (email link, password reset, finding
   * one's workspaces) are sent no sooner than this many milliseconds after the request arrived, so
   * the work done for a known address cannot be timed (docs/rules.md §7 No enumeration).
   */
  enumerationFloorMs: number;
  /**
   * The whole request (headers and body) must arrive within this many milliseconds, else 408 and the
   * connection closes: a slow client cannot hold a request forever. Env REQUEST_TIMEOUT_MS, default 30 s.
   */
  requestTimeoutMs: number;
  /** The request headers must arrive within this (env HEADERS_TIMEOUT_MS, default 10 s, at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (env KEEP_ALIVE_TIMEOUT_MS, default 5 s). */
  keepAliveTimeoutMs: number;
  /**
   * On SIGTERM or SIGINT, how long the server goes on serving with /readyz at 503 before it closes its
   * listener, so a balancer's health checks take it out first (env SHUTDOWN_DRAIN_MS, default 5 s; 0: no
   * drain). docs/operations.md, "Readiness and shutdown".
   */
  shutdownDrainMs: number;
  /** Requests a minute allowed per client address and per bearer token. */
  rateLimit: { perAddressPerMinute: number; perTokenPerMinute: number };
  /**
   * Heavy listings (GET /activities) running at once in this process, per bearer token and per
   * workspace: env LISTING_CONCURRENCY_PER_TOKEN (default 2) and LISTING_CONCURRENCY_PER_WORKSPACE (default 4).
   */
  listingConcurrency: { perToken: number; perWorkspace: number };
  /**
   * PostgreSQL: heavy listings of one workspace running at once in this process, each holding at most
   * one of the long reads' 8 connections (env LONG_READS_PER_WORKSPACE, default 2, below 8): however
   * many answers three workspaces leave unread, another workspace's long read gets a connection
   * (docs/durability.md §7).
   */
  longReadsPerWorkspace: number;
  /**
   * A streamed answer (a long listing, an export) whose connection moves no byte for this long is
   * closed, giving its snapshot back (env LONG_READ_STALL_MS, default 10 s).
   */
  longReadStallMs: number;
  /** Where rate-limit counters live, shared by every instance; unset: in this process. */
  redisUrl: string | undefined;
  /**
   * Which peers are proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (env TRUST_PROXY):
   * false (unset, the default) believes none, a number that many hops in front of the server, a list
   * the peers at those addresses and CIDR ranges. Fastify's `trustProxy` (docs/rules.md §1 Behind a proxy).
   */
  trustProxy: TrustProxy;
  /**
   * How long change-feed events are kept (env CHANGE_RETENTION_DAYS, default 30, fractions allowed),
   * in milliseconds; older ones are pruned and a cursor before them answers 410 (docs/rules.md §6 Change feed).
   */
  changeRetentionMs: number;
  /**
   * How often the server's timesheet schedule looks for due automatic locks and reminders (env
   * SCHEDULE_INTERVAL_MS, default 60 s; docs/rules.md §6 Timesheet schedule).
   */
  scheduleIntervalMs: number;
  /** Webhook delivery (docs/webhooks.md). */
  webhooks: WebhookConfig;
  /**
   * The server secret that encrypts secrets kept at rest (TOTP secrets, OIDC verifiers, webhook signing
   * secrets): env SECRET_KEY, any text of
   * 32 characters or more. Unset: a random key is made once and kept in the file `secretKeyFile`
   * (env SECRET_KEY_FILE, default `data/secret-key`), so every instance sharing that file agrees.
   */
  secretKey: string | undefined;
  secretKeyFile: string;
  /** OpenID Connect single sign-on, when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set (docs/rules.md §8). */
  oidc: OidcConfig | undefined;
  /** Prometheus metrics (docs/operations.md "Metrics"). */
  metrics: MetricsConfig;
}

export interface MetricsConfig {
  /** The port of the metrics listener, which answers only GET /metrics (env METRICS_PORT); unset: no listener. */
  port: number | undefined;
  /** Its address (env METRICS_HOST, default 127.0.0.1). */
  host: string;
  /** GET /metrics on the public port too, behind `Authorization: Bearer <METRICS_TOKEN>` (env METRICS_PUBLIC=true). */
  public: boolean;
  /** The bearer token of the public /metrics (env METRICS_TOKEN, at least 32 characters; required when METRICS_PUBLIC=true). */
  token: string | undefined;
}

/** Off, a count of hops, or the addresses and CIDR ranges of the proxies (see Config.trustProxy). */
export type TrustProxy = false | number | string[];

export interface WebhookConfig {
  /** How often each instance's worker looks for due deliveries (env WEBHOOK_WORKER_INTERVAL_MS, default 1 s). */
  workerIntervalMs: number;
  /**
   * How long a worker holds a delivery it took (env WEBHOOK_LEASE_MS, default 60 s, more than the timeout):
   * a killed instance's delivery is taken again by another once this has passed.
   */
  leaseMs: number;
  /** One attempt's time limit, connection to the end of the answer (env WEBHOOK_TIMEOUT_MS, default 5 s). */
  timeoutMs: number;
  /** Deliveries one instance makes at once, each to a different webhook (env WEBHOOK_CONCURRENCY, default 8). */
  concurrency: number;
  /** http:// and loopback addresses allowed (env WEBHOOK_ALLOW_PRIVATE=true): for tests and local receivers only. */
  allowPrivate: boolean;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** OIDC_ALLOWED_DOMAINS: email domains the provider may sign in at all (empty: any). */
  allowedDomains: string[];
  /** OIDC_DISPLAY_NAME: how the web app names the provider; default the issuer's host. */
  displayName: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(env.PORT ?? '3000');
  const baseDomain = (env.BASE_DOMAIN ?? 'localhost').trim().toLowerCase();
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL ?? 'sqlite:data/timetrack.db',
    baseDomain,
    publicUrl: stripTrailingSlash(env.PUBLIC_URL ?? `http://${baseDomain}:${port}`),
    bootstrap: env.BOOTSTRAP !== undefined ? env.BOOTSTRAP !== 'false' : env.NODE_ENV !== 'production',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? `timetrack <no-reply@${baseDomain}>`,
    supportEmail: env.SUPPORT_EMAIL?.trim() || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    sessionTtlSeconds: 12 * 60 * 60,
    sessionIdleSeconds: parseCount('SESSION_IDLE_TIMEOUT_SECONDS', env.SESSION_IDLE_TIMEOUT_SECONDS ?? String(2 * 60 * 60)),
    signInLockout: {
      perAccount: parseCount('SIGN_IN_FAILURES_PER_ACCOUNT', env.SIGN_IN_FAILURES_PER_ACCOUNT ?? '10'),
      perAddress: parseCount('SIGN_IN_FAILURES_PER_ADDRESS', env.SIGN_IN_FAILURES_PER_ADDRESS ?? '50'),
      windowSeconds: parseCount('SIGN_IN_LOCKOUT_SECONDS', env.SIGN_IN_LOCKOUT_SECONDS ?? '900'),
    },
    signInAttemptsPerAddressPerMinute: parseCount('SIGN_IN_ATTEMPTS_PER_ADDRESS', env.SIGN_IN_ATTEMPTS_PER_ADDRESS ?? '60'),
    oidcStartsPerAddressPerMinute: parseCount('OIDC_STARTS_PER_ADDRESS', env.OIDC_STARTS_PER_ADDRESS ?? '60'),
    enumerationFloorMs: 250,
    ...timeouts(env),
    shutdownDrainMs: parseMilliseconds('SHUTDOWN_DRAIN_MS', env.SHUTDOWN_DRAIN_MS ?? '5000'),
    rateLimit: {
      perAddressPerMinute: parseCount('RATE_LIMIT_PER_ADDRESS', env.RATE_LIMIT_PER_ADDRESS ?? '6000'),
      perTokenPerMinute: parseCount('RATE_LIMIT_PER_TOKEN', env.RATE_LIMIT_PER_TOKEN ?? '1200'),
    },
    listingConcurrency: {
      perToken: parseCount('LISTING_CONCURRENCY_PER_TOKEN', env.LISTING_CONCURRENCY_PER_TOKEN ?? '2'),
      perWorkspace: parseCount('LISTING_CONCURRENCY_PER_WORKSPACE', env.LISTING_CONCURRENCY_PER_WORKSPACE ?? '4'),
    },
    longReadsPerWorkspace: longReadsPerWorkspaceOf(env),
    longReadStallMs: parseCount('LONG_READ_STALL_MS', env.LONG_READ_STALL_MS ?? '10000'),
    redisUrl: env.REDIS_URL || undefined,
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    changeRetentionMs: parseDays('CHANGE_RETENTION_DAYS', env.CHANGE_RETENTION_DAYS ?? '30') * 86_400_000,
    scheduleIntervalMs: parseCount('SCHEDULE_INTERVAL_MS', env.SCHEDULE_INTERVAL_MS ?? '60000'),
    webhooks: webhookConfig(env),
    secretKey: secretKeyOf(env.SECRET_KEY),
    secretKeyFile: env.SECRET_KEY_FILE || 'data/secret-key',
    oidc: oidcOf(env),
    metrics: metricsOf(env),
  };
}

/** The shortest METRICS_TOKEN accepted: the token guards the public /metrics, so it must not be guessable. */
const METRICS_TOKEN_MIN_LENGTH = 32;

function metricsOf(env: NodeJS.ProcessEnv): MetricsConfig {
  const port = env.METRICS_PORT?.trim() ? parseListenPort('METRICS_PORT', env.METRICS_PORT.trim()) : undefined;
  const host = env.METRICS_HOST?.trim() || '127.0.0.1';
  const flag = env.METRICS_PUBLIC?.trim() ?? 'false';
  if (flag !== 'true' && flag !== 'false') throw new Error(`METRICS_PUBLIC must be true or false, got "${env.METRICS_PUBLIC}"`);
  const token = env.METRICS_TOKEN || undefined;
  if (flag === 'true' && token === undefined) throw new Error('METRICS_PUBLIC=true needs METRICS_TOKEN: the bearer token that guards /metrics on the public port');
  if (token !== undefined && token.length < METRICS_TOKEN_MIN_LENGTH) {
    throw new Error(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters long`);
  }
  return { port, host, public: flag === 'true', token };
}

/** Long reads' connections of an instance on PostgreSQL (LONG_READ_CONNECTIONS in db/database.ts). */
const LONG_READ_POOL = 8;

function longReadsPerWorkspaceOf(env: NodeJS.ProcessEnv): number {
  const perWorkspace = parseCount('LONG_READS_PER_WORKSPACE', env.LONG_READS_PER_WORKSPACE ?? String(LONG_READ_POOL / 4));
  if (perWorkspace >= LONG_READ_POOL) throw new Error(`LONG_READS_PER_WORKSPACE (${perWorkspace}) must be below the ${LONG_READ_POOL} long-read connections`);
  return perWorkspace;
}

function webhookConfig(env: NodeJS.ProcessEnv): WebhookConfig {
  const timeoutMs = parseCount('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS ?? '5000');
  const leaseMs = parseCount('WEBHOOK_LEASE_MS', env.WEBHOOK_LEASE_MS ?? '60000');
  if (leaseMs <= timeoutMs) throw new Error(`WEBHOOK_LEASE_MS (${leaseMs}) must be more than WEBHOOK_TIMEOUT_MS (${timeoutMs})`);
  return {
    workerIntervalMs: parseCount('WEBHOOK_WORKER_INTERVAL_MS', env.WEBHOOK_WORKER_INTERVAL_MS ?? '1000'),
    leaseMs,
    timeoutMs,
    concurrency: parseCount('WEBHOOK_CONCURRENCY', env.WEBHOOK_CONCURRENCY ?? '8'),
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true',
  };
}

const TRUST_PROXY_FORMS = 'false, a number of hops ≥ 1, or a comma-separated list of IP addresses and CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8,::1)';

/**
 * TRUST_PROXY: unset, empty or `false` trusts no proxy; a whole number ≥ 1 trusts that many hops; else every
 * comma-separated item must be an IPv4 or IPv6 address, with an optional `/prefix` from 1 to its family's bits.
 * `true` is refused: trusting every peer would let any client choose the address it is counted by.
 */
function trustProxyOf(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (!Number.isSafeInteger(hops) || hops < 1) throw new Error(`TRUST_PROXY must be ${TRUST_PROXY_FORMS}, got "${value}"`);
    return hops;
  }
  if (text === 'true') {
    throw new Error(`TRUST_PROXY=true is refused: it would believe X-Forwarded-For from any peer. Give ${TRUST_PROXY_FORMS}`);
  }
  return text.split(',').map((item) => {
    const entry = item.trim();
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    // A /0 range would trust every peer, as `true` would.
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || rest.length > 0) {
      throw new Error(`TRUST_PROXY must be ${TRUST_PROXY_FORMS}: "${entry}" is not an IP address or CIDR range`);
    }
    return entry;
  });
}

function secretKeyOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (value.length < 32) throw new Error('SECRET_KEY must be at least 32 characters long');
  return value;
}

function oidcOf(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET;
  if (!issuer && !clientId && !clientSecret) return undefined;
  if (!issuer || !clientId || !clientSecret) {
    throw new Error('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set together or not at all');
  }
  let host: string;
  try {
    host = new URL(issuer).host;
  } catch {
    throw new Error(`OIDC_ISSUER must be a URL, got "${issuer}"`);
  }
  const allowedDomains = (env.OIDC_ALLOWED_DOMAINS ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter((domain) => domain !== '');
  return { issuer, clientId, clientSecret, allowedDomains, displayName: env.OIDC_DISPLAY_NAME?.trim() || host };
}

function timeouts(env: NodeJS.ProcessEnv): Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'> {
  const requestTimeoutMs = parseCount('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS ?? '30000');
  const headersTimeoutMs = parseCount('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS ?? String(Math.min(10_000, requestTimeoutMs)));
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be more than REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  const keepAliveTimeoutMs = parseCount('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS ?? '5000');
  return { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, got "${value}"`);
  }
  return port;
}

function parseListenPort(name: string, value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a whole number from 0 to 65535, got "${value}"`);
  return port;
}

function parseCount(name: string, value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new Error(`${name} must be a whole number ≥ 1, got "${value}"`);
  return count;
}

function parseMilliseconds(name: string, value: string): number {
  const ms = Number(value);
  if (value.trim() === '' || !Number.isInteger(ms) || ms < 0) throw new Error(`${name} must be a whole number of milliseconds ≥ 0, got "${value}"`);
  return ms;
}

function parseDays(name: string, value: string): number {
  const days = Number(value);
  if (value.trim() === '' || !Number.isFinite(days) || days <= 0) throw new Error(`${name} must be a number of days > 0, got "${value}"`);
  return days;
}

function stripTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/** The address clients use for one workspace: the public URL with `domain.` before its host. */
export function workspaceUrl(config: Config, domain: string): string {
  const url = new URL(config.publicUrl);
  const path = url.pathname === '/' ? '' : stripTrailingSlash(url.pathname);
  return `${url.protocol}//${domain}.${url.host}${path}`;
}

/** The origin of one workspace (scheme, host and port of workspaceUrl): the only origin its cookie-authenticated writes may come from. */
export function workspaceOrigin(config: Config, domain: string): string {
  return new URL(workspaceUrl(config, domain)).origin;
}

/** Whether links and cookies are served over TLS (PUBLIC_URL is https): the session cookie is then Secure. */
export const servesHttps = (config: Config): boolean => config.publicUrl.startsWith('https:');

/** The support address: SUPPORT_EMAIL, else `support@<BASE_DOMAIN>`. */
export function supportAddress(config: Config): string {
  return config.supportEmail ?? `support@${config.baseDomain}`;
}
