/** oidc-provider ships no types; the tests use a small part of it (test/support/oidc-provider.ts). */
declare module 'oidc-provider' {
  const Provider: new (issuer: string, configuration: Record<string, unknown>) => {
    callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
    on(event: string, listener: (...args: any[]) => void): void;
  };
  export default Provider;
}
