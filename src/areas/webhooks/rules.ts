import { randomBytes } from 'node:crypto';
import { conflict, invalid } from '../../domain/errors.js';
import { classifyAddress, type AddressClass } from '../../lib/addresses.js';

/** Retries of one delivery stop this long after its first attempt (docs/webhooks.md "Retries"). */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;
/** Finished deliveries are kept this long, then pruned with their attempts. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60_000;
/**
 * A worker takes up to this many of one webhook's deliveries at once and sends them one after
 * another, recording them in one transaction (docs/webhooks.md "Delivery"); a webhook has one run
 * at a time, so this bounds its deliveries a claim: at 16, a backlog of one webhook went out at about
 * half the rate of one of 64.
 */
export const DELIVERIES_PER_RUN = 64;
/**
 * How many webhooks one workspace may have (docs/rules.md §6 Webhooks): each is a receiver the
 * worker may wait on, so a workspace cannot take a worker's slots without end.
 */
export const WEBHOOKS_PER_WORKSPACE = 20;

/** 409 when a workspace that has `held` webhooks may not get another. */
export function assertRoomForWebhook(held: number): void {
  if (held >= WEBHOOKS_PER_WORKSPACE) {
    throw conflict(`A workspace may have at most ${WEBHOOKS_PER_WORKSPACE} webhooks: delete one before creating another.`);
  }
}

/**
 * The slots of a worker's WEBHOOK_CONCURRENCY one workspace may hold at once (docs/webhooks.md
 * "Delivery"): a quarter, rounded up, so that receivers of one workspace that never answer leave
 * the other slots to the other workspaces.
 */
export const slotsPerWorkspace = (concurrency: number): number => Math.ceil(concurrency / 4);

/** After a rotation the former secret keeps signing this long. */
export const SECRET_GRACE_MS = 24 * 60 * 60_000;

/** What a signing secret is sealed for (lib/sealing.ts binds it to the sealed value). */
export const SECRET_PURPOSE = 'webhook-signing-secret';
const FIRST_RETRY_MS = 10_000;
const LONGEST_RETRY_MS = 60 * 60_000;

export const SECRET_PREFIX = 'whsec_';
export const newSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64url');

/**
 * The wait after the n-th failed attempt: 10 s doubling up to an hour, with "equal jitter" (a random
 * point in the upper half), so receivers that failed together are not retried together and each
 * wait is at least the longest the one before could have been.
 */
export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1), LONGEST_RETRY_MS);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * After a failed attempt at `now`: the next try (never past the window's end), or null when the
 * window from the first attempt is over and the delivery gives up.
 */
export function nextAttemptAfterFailure(firstAttemptAt: Date, now: Date, failures: number): Date | null {
  const end = firstAttemptAt.getTime() + RETRY_WINDOW_MS;
  if (now.getTime() >= end) return null;
  return new Date(Math.min(now.getTime() + retryDelayMs(failures), end));
}

/** Whether an address of this class may be connected to, for a URL of this protocol. */
export function addressAllowed(kind: AddressClass, protocol: string, allowPrivate: boolean): boolean {
  if (kind === 'public') return protocol === 'https:';
  return kind === 'loopback' && allowPrivate;
}

export function refusalOf(kind: AddressClass, allowPrivate: boolean): string {
  if (kind === 'public') return 'http:// is allowed only to a loopback address with WEBHOOK_ALLOW_PRIVATE=true';
  if (kind === 'loopback' && !allowPrivate) return 'a loopback address is allowed only with WEBHOOK_ALLOW_PRIVATE=true';
  return `refused: ${kind} address`;
}

const URL_POINTER = '/body/url';

/**
 * A webhook URL as stored (its normalized href): absolute, https (http too to a loopback literal or a
 * `localhost` name, with WEBHOOK_ALLOW_PRIVATE), no user name or password, and not naming a non-public
 * address or `localhost` outright. A host name
 * is checked again, resolved, at every delivery (DNS can change: docs/webhooks.md).
 */
export function cleanWebhookUrl(text: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw invalid(URL_POINTER, 'must be an absolute URL, e.g. https://hooks.example.com/timetrack');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw invalid(URL_POINTER, 'must be an https:// URL');
  if (url.username || url.password) throw invalid(URL_POINTER, 'must not carry a user name or password: deliveries are signed instead');
  const host = url.hostname;
  // A fully qualified name's trailing dot (`localhost.`) names the same host.
  const name = host.replace(/\.+$/, '');
  const kind = classifyAddress(host) ?? (name === 'localhost' || name.endsWith('.localhost') ? 'loopback' : null);
  if (kind !== null && kind !== 'public' && !(kind === 'loopback' && allowPrivate)) {
    throw invalid(URL_POINTER, `must reach a public address: ${host} is a ${kind} address`);
  }
  if (url.protocol === 'http:' && kind !== 'loopback') {
    throw invalid(URL_POINTER, `must be an https:// URL: http:// is allowed only to a loopback address (${host} is not one)`);
  }
  return url.href;
}

/**
 * The event types as stored: each `*` or a type of the change feed (422 at its index otherwise),
 * duplicates dropped, and only `*` when it is among them.
 */
export function cleanEventTypes(types: string[], known: ReadonlySet<string>): string[] {
  types.forEach((type, index) => {
    if (type !== '*' && !known.has(type)) throw invalid(`/body/events/${index}`, 'must be `*` or an event type of the change feed');
  });
  return types.includes('*') ? ['*'] : [...new Set(types)];
}

export const matchesEvent = (types: string[], type: string): boolean => types.includes('*') || types.includes(type);
