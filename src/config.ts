/** Everything the operator can set, read once from the environment (decisions §1). */
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
  /** Fastify request timeout, in milliseconds: a slow client cannot hold a request forever. */
  requestTimeoutMs: number;
  /** Requests a minute allowed per client address and per bearer token. */
  rateLimit: { perAddressPerMinute: number; perTokenPerMinute: number };
  /** Where rate-limit counters live, shared by every instance; unset: in this process. */
  redisUrl: string | undefined;
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
    requestTimeoutMs: 30_000,
    rateLimit: {
      perAddressPerMinute: parseCount('RATE_LIMIT_PER_ADDRESS', env.RATE_LIMIT_PER_ADDRESS ?? '6000'),
      perTokenPerMinute: parseCount('RATE_LIMIT_PER_TOKEN', env.RATE_LIMIT_PER_TOKEN ?? '1200'),
    },
    redisUrl: env.REDIS_URL || undefined,
  };
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
