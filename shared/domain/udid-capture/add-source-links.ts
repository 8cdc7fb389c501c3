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
