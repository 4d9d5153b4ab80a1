/** How a session began (sessions.method): shown in the list of sessions, and asked by rules that trust a fresh link. */
export type SignInMethod = 'support' | 'link' | 'invitation' | 'password-reset' | 'password' | 'oidc';
