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

/** Previous, the page number (announced), Next: the one paging bar every list shows. `page` counts from 1. */
function PagingBar({ page, onPrev, onNext }: { page: number; onPrev: (() => void) | undefined; onNext: (() => void) | undefined }) {
  const t = useStrings(common);
  return (
    <nav class="paging" aria-label={t('paging')}>
      <button type="button" class="btn secondary" disabled={!onPrev} onClick={onPrev}>
        {t('prev')}
      </button>
      <span aria-live="polite">{t('page', { n: page })}</span>
      <button type="button" class="btn secondary" disabled={!onNext} onClick={onNext}>
        {t('next')}
      </button>
    </nav>
  );
}

export function Paging({ cursors, next }: { cursors: Cursors; next: string }) {
  if (cursors.page === 1 && !next) return null;
  return <PagingBar page={cursors.page} onPrev={cursors.page === 1 ? undefined : cursors.prev} onNext={next ? () => cursors.next(next) : undefined} />;
}

/**
 * Paging in the browser over a list the API answers whole (`page` from 0, `size` rows a page): nothing when it
 * fits on one page.
 */
export function LocalPaging({ page, setPage, size, total }: { page: number; setPage: (page: number) => void; size: number; total: number }) {
  if (total <= size) return null;
  return <PagingBar page={page + 1} onPrev={page === 0 ? undefined : () => setPage(page - 1)} onNext={(page + 1) * size >= total ? undefined : () => setPage(page + 1)} />;
}
