import { conflict } from '../../../domain/errors.js';

/**
 * How many API keys one user may hold in one workspace (docs/rules.md §2 Tokens): enough for every
 * script and device a person runs, few enough that keys cannot be minted without end.
 */
export const API_KEYS_PER_USER = 100;

/** 409 when a user who holds `held` keys may not get another. */
export function assertRoomForApiKey(held: number): void {
  if (held >= API_KEYS_PER_USER) {
    throw conflict(`A user may hold at most ${API_KEYS_PER_USER} API keys in a workspace: revoke one before creating another.`);
  }
}
