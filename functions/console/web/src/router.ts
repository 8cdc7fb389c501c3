/**
 * Routes are the URL's fragment (`#/devices/k123?zt=normal`): the server has one page to answer, and a link
 * copied from the address bar opens the same screen. The query part holds a screen's filters.
 */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** `['devices', 'k123']` */
  segments: string[];
  query: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  return { segments: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

export function hrefOf(segments: readonly string[], query?: Record<string, string> | URLSearchParams): string {
  const params = new URLSearchParams(query instanceof URLSearchParams ? query : Object.entries(query ?? {}).filter(([, v]) => v !== ''));
  const search = params.toString();
  return `#/${segments.map(encodeURIComponent).join('/')}${search ? `?${search}` : ''}`;
}

export function navigate(segments: readonly string[], query?: Record<string, string> | URLSearchParams): void {
  location.hash = hrefOf(segments, query);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
