import { signal } from '@preact/signals';

/** The page the person is on: the path, without the query. */
export const currentPath = signal(location.pathname);
/** The query of the page's address (`?week=2026-W49`), kept as the path is. */
export const currentSearch = signal(location.search);

export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  currentPath.value = location.pathname;
  currentSearch.value = location.search;
  window.scrollTo(0, 0);
}

addEventListener('popstate', () => {
  currentPath.value = location.pathname;
  currentSearch.value = location.search;
});

/** Follows a same-origin link without reloading the app (modified clicks keep their meaning). */
export function followLink(event: MouseEvent): void {
  const link = (event.currentTarget as HTMLAnchorElement | null) ?? null;
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(link.getAttribute('href') ?? '/');
}
