import type { Locator, Page } from 'playwright-core';

/**
 * The pictures the README shows (`test/e2e/screenshots/`) and the ones kept in `.local/` to look at. They are
 * taken where the page tests reach each screen, but written only by `npm run screenshots`
 * (`UPDATE_SCREENSHOTS=1`): nothing asserts on a picture, so `npm test` neither pays for encoding ~50 PNGs
 * (13 s of Chromium's CPU a run) nor leaves a fresh clone with rewritten tracked files.
 */
export async function screenshot(target: Page | Locator, path: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  if ('goto' in target) await target.screenshot({ path, ...options });
  else await target.screenshot({ path });
}
