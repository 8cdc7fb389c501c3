/**
 * Paging over the API's cursors (`cursor` in, `data.next` out; an empty `next` is the end): the cursors of
 * the pages seen so far are kept, so Previous goes back without the API having to page backwards.
 */
import { useState } from 'preact/hooks';
import { useStrings } from '../i18n';
import { common } from './strings';

export interface Cursors {
  /** The cursor of the page shown ('' for the first). */
  cursor: string;
  page: number;
  next(nextCursor: string): void;
  prev(): void;
  reset(): void;
}

export function useCursors(): Cursors {
  const [stack, setStack] = useState<string[]>(['']);
  return {
    cursor: stack[stack.length - 1] ?? '',
    page: stack.length,
    next: (nextCursor) => setStack((s) => [...s, nextCursor]),
    prev: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
    reset: () => setStack(['']),
  };
}

export function Paging({ cursors, next }: { cursors: Cursors; next: string }) {
  const t = useStrings(common);
  if (cursors.page === 1 && !next) return null;
  return (
    <nav class="paging" aria-label={t('paging')}>
      <button type="button" class="btn secondary" disabled={cursors.page === 1} onClick={cursors.prev}>
        {t('prev')}
      </button>
      <span aria-live="polite">{t('page', { n: cursors.page })}</span>
      <button type="button" class="btn secondary" disabled={!next} onClick={() => cursors.next(next)}>
        {t('next')}
      </button>
    </nav>
  );
}
