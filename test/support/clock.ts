import { setClock } from '../../shared/clock';

/**
 * Runs `body` with the product's clock moving with real time but starting at the top of a calendar minute two
 * minutes ahead, so a test that fills a per-minute counter cannot see its window turn over on a slow machine.
 * `start` is that minute's first millisecond (for computing the window's bucket keys).
 */
export async function atMinuteStart<T>(body: (start: number) => Promise<T>): Promise<T> {
  const start = (Math.floor(Date.now() / 60_000) + 2) * 60_000;
  const offset = start - Date.now();
  const restore = setClock(() => Date.now() + offset);
  try {
    return await body(start);
  } finally {
    restore();
  }
}
