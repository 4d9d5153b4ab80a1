import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { me } from '../../data/session.js';

/**
 * A page whose code is fetched the first time it is opened, so the management pages add nothing to
 * the first page's budget (docs/web-app-management.md).
 */
export function lazyPage(load: () => Promise<ComponentType>, options: { adminOnly?: boolean } = {}): () => preact.JSX.Element {
  let loaded: ComponentType | null = null;
  return function LazyPage() {
    const [Page, setPage] = useState<ComponentType | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    const allowed = !options.adminOnly || me.value?.role === 'Administrator';
    useEffect(() => {
      if (!allowed || Page) return;
      load()
        .then((component) => {
          loaded = component;
          setPage(() => component);
        })
        .catch(() => setFailed(true));
    }, [allowed]);
    if (!allowed) return <NotAllowed />;
    if (failed) return <p role="alert" class="error">This page could not be loaded. Check the connection and reload.</p>;
    return Page ? <Page /> : <p class="loading">Loading…</p>;
  };
}

/** What a person sees on a page their role does not offer: a plain refusal, never a crash. */
export function NotAllowed() {
  return (
    <section class="card" aria-labelledby="not-allowed">
      <h1 id="not-allowed">Not allowed</h1>
      <p>This page is for the workspace's administrators. Ask one of them if you need something changed here.</p>
      <a href="/">Back to tracking</a>
    </section>
  );
}
