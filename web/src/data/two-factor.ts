import { signal } from '@preact/signals';
import { api, type Problem } from '../api/client.js';

export interface TwoFactorState {
  enabled: boolean;
  pending: boolean;
  recoveryCodesLeft: number;
  requiredByWorkspace: boolean;
}

/** A current code from the authenticator app, or else one of the recovery codes (the API takes exactly one). */
export type CodeProof = { code: string } | { recoveryCode: string };

/** The person's two-factor codes (GET /auth/two-factor): on, pending, recovery codes left, required here. */
export const twoFactor = signal<TwoFactorState | null>(null);

/**
 * The workspace requires two-factor codes and this person has none: the API refuses everything but
 * enrolment (403 `two-factor-required`), so the app shows only the enrolment screen.
 */
export const enrolmentRequired = signal(false);

/** What a typed code is: six digits are a code from the app, anything else a recovery code. */
export const proofOf = (typed: string): CodeProof => (/^\d{6}$/.test(typed) ? { code: typed } : { recoveryCode: typed });

/** Loads the person's two-factor state; the API's problem when it refuses. */
export async function loadTwoFactor(): Promise<Problem | undefined> {
  const answer = await api.GET('/auth/two-factor');
  if (answer.data) twoFactor.value = answer.data;
  return answer.error;
}

/** Starts an enrolment: the secret, its otpauth:// URI and QR code (SVG), answered this once. */
export function startEnrolment() {
  return api.POST('/auth/two-factor');
}

/** Turns the codes on with a current code; the ten recovery codes come back, once. */
export async function confirmEnrolment(code: string) {
  const answer = await api.POST('/auth/two-factor/confirm', { body: { code } });
  if (answer.data) await loadTwoFactor();
  return answer;
}

/** Ten new recovery codes (the earlier ones stop working), with a code or a recovery code. */
export async function renewRecoveryCodes(proof: CodeProof) {
  const answer = await api.POST('/auth/two-factor/recovery-codes', { body: proof });
  if (answer.data) await loadTwoFactor();
  return answer;
}

/** Turns the codes off, with a code or a recovery code. */
export async function turnOffTwoFactor(proof: CodeProof) {
  const answer = await api.POST('/auth/two-factor/disable', { body: proof });
  if (!answer.error) await loadTwoFactor();
  return answer;
}
