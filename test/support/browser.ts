import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs it), or the one `CHROMIUM_PATH` names. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The viewport the customer pages are checked at: an iPhone's 390×844 points, at 2× pixels, touch. */
export const IPHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** Headless Chromium for the browser tests, quiet (no background network, no sync). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}
