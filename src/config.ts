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
  /** Lifetime of a session access token, in seconds. */
  sessionTtlSeconds: number;
  /**
   * The whole request (headers and body) must arrive within this many milliseconds, else 408 and the
   * connection closes: a slow client cannot hold a request forever. Env REQUEST_TIMEOUT_MS, default 30 s.
   */
  requestTimeoutMs: number;
  /** The request headers must arrive within this (env HEADERS_TIMEOUT_MS, default 10 s, at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (env KEEP_ALIVE_TIMEOUT_MS, default 5 s). */
  keepAliveTimeoutMs: number;
  /** Requests a minute allowed per client address and per bearer token. */
  rateLimit: { perAddressPerMinute: number; perTokenPerMinute: number };
  /**
   * Heavy listings (GET /activities) running at once in this process, per bearer token and per
   * workspace: env LISTING_CONCURRENCY_PER_TOKEN (default 2) and LISTING_CONCURRENCY_PER_WORKSPACE (default 4).
   */
  listingConcurrency: { perToken: number; perWorkspace: number };
  /** Where rate-limit counters live, shared by every instance; unset: in this process. */
  redisUrl: string | undefined;
  /**
   * How long change-feed events are kept (env CHANGE_RETENTION_DAYS, default 30, fractions allowed),
   * in milliseconds; older ones are pruned and a cursor before them answers 410 (docs/rules.md §6 Change feed).
   */
  changeRetentionMs: number;
  /** Webhook delivery (docs/webhooks.md). */
  webhooks: WebhookConfig;
}

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
  /**
   * The key webhook secrets are sealed with at rest (env WEBHOOK_SECRET_KEY, any text of 32 or more
   * characters). Unset: a built-in key, which hides the secrets from a casual look at a dump but not
   * from someone who also has the source; README and docs/webhooks.md say to set it.
   */
  secretKey: string | undefined;
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
    ...timeouts(env),
    rateLimit: {
      perAddressPerMinute: parseCount('RATE_LIMIT_PER_ADDRESS', env.RATE_LIMIT_PER_ADDRESS ?? '6000'),
      perTokenPerMinute: parseCount('RATE_LIMIT_PER_TOKEN', env.RATE_LIMIT_PER_TOKEN ?? '1200'),
    },
    listingConcurrency: {
      perToken: parseCount('LISTING_CONCURRENCY_PER_TOKEN', env.LISTING_CONCURRENCY_PER_TOKEN ?? '2'),
      perWorkspace: parseCount('LISTING_CONCURRENCY_PER_WORKSPACE', env.LISTING_CONCURRENCY_PER_WORKSPACE ?? '4'),
    },
    redisUrl: env.REDIS_URL || undefined,
    changeRetentionMs: parseDays('CHANGE_RETENTION_DAYS', env.CHANGE_RETENTION_DAYS ?? '30') * 86_400_000,
    webhooks: webhookConfig(env),
  };
}

function webhookConfig(env: NodeJS.ProcessEnv): WebhookConfig {
  const timeoutMs = parseCount('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS ?? '5000');
  const leaseMs = parseCount('WEBHOOK_LEASE_MS', env.WEBHOOK_LEASE_MS ?? '60000');
  if (leaseMs <= timeoutMs) throw new Error(`WEBHOOK_LEASE_MS (${leaseMs}) must be more than WEBHOOK_TIMEOUT_MS (${timeoutMs})`);
  const secretKey = env.WEBHOOK_SECRET_KEY || undefined;
  if (secretKey !== undefined && secretKey.length < 32) throw new Error('WEBHOOK_SECRET_KEY must be at least 32 characters long');
  return {
    workerIntervalMs: parseCount('WEBHOOK_WORKER_INTERVAL_MS', env.WEBHOOK_WORKER_INTERVAL_MS ?? '1000'),
    leaseMs,
    timeoutMs,
    concurrency: parseCount('WEBHOOK_CONCURRENCY', env.WEBHOOK_CONCURRENCY ?? '8'),
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true',
    secretKey,
  };
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

function parseCount(name: string, value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new Error(`${name} must be a whole number ≥ 1, got "${value}"`);
  return count;
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

/** The support address: SUPPORT_EMAIL, else `support@<BASE_DOMAIN>`. */
export function supportAddress(config: Config): string {
  return config.supportEmail ?? `support@${config.baseDomain}`;
}
