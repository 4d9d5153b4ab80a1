// What the rest of access uses of sessions: beginning, finding, noting and ending them.
export type { SignInMethod } from './session-rules.js';
export { beginSession, endOtherSessions, holderOfSession, noteSessionUse, originOfSession } from './session-service.js';
