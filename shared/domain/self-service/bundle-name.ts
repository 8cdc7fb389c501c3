/** The name of a certificate's zip, so a person knows what it is: `<device name or UDID>-<kid>.zip`. */
export function bundleName(deviceName: string, udid: string, kid: string): string {
  const name = deviceName.normalize('NFKD').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return `${name || udid}-${kid}.zip`;
}
