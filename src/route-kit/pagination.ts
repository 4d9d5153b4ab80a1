/** The request's own path and query with the cursor of the next page (the Link of a full page; relative to the request). */
export function withCursor(url: string, cursor: string): string {
  const at = url.indexOf('?');
  const query = new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
  query.set('cursor', cursor);
  return `${at < 0 ? url : url.slice(0, at)}?${query.toString()}`;
}

/** The `Link` header of a page that has a next one. */
export const nextLink = (url: string, cursor: string): string => `<${withCursor(url, cursor)}>; rel="next"`;
