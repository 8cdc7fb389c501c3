import { sourceUrl } from '../sources/source';

/**
 * The feed URL a captured device adds to its signer app: the ONE place the install page builds it. Today the
 * source feed with `?udid=`; device-bound feed URLs (an opaque device key) replace this function's body.
 */
export function deviceFeedUrl(baseUrl: string, sourceId: string, udid: string): string {
  return `${baseUrl}${sourceUrl(sourceId)}?udid=${encodeURIComponent(udid)}`;
}

/**
 * One-tap "add source" links of the signer apps, from their own URL handling: AltStore and SideStore read
 * `<scheme>://source?url=<encoded>`, Feather takes the URL as the path after `feather://source/`, the ESign
 * family `esign://addsource?url=<encoded>`.
 */
export function addSourceLinks(feedUrl: string): { app: string; href: string }[] {
  const encoded = encodeURIComponent(feedUrl);
  return [
    { app: 'AltStore', href: `altstore://source?url=${encoded}` },
    { app: 'SideStore', href: `sidestore://source?url=${encoded}` },
    { app: 'Feather', href: `feather://source/${feedUrl}` },
    { app: 'ESign', href: `esign://addsource?url=${encoded}` },
  ];
}
