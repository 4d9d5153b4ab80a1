import { expect } from 'vitest';
import type { Response } from './harness.js';

/**
 * The body of an answer that must have the status (200 unless told): `await ok(as(h, ws).post(...))`.
 * The one such helper of the suites, for set-up and for assertions alike.
 */
export async function ok<T = any>(promise: Promise<Response>, status = 200): Promise<T> {
  const res = await promise;
  expect(res.status, `${res.status} ${res.text}`).toBe(status);
  return res.body as T;
}
