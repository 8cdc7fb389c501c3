/**
 * A UDID capture: a device that installed the Profile Service profile and answered with a CMS SignedData
 * whose signer chains to a trust anchor. Only verified submissions are ever recorded.
 */
export interface UdidCapture {
  capture_id: string;
  tenant_id: string;
  /** The source whose profile the device installed; empty for the tenant's own profile. */
  source_id: string;
  /** The reseller the capture belongs to: the source's owner, or the `user` the tenant profile named. */
  owner_id: string;
  udid: string;
  /** Apple's model identifier (`iPhone15,2`), as the device reported it; empty when absent. */
  product: string;
  /** The iOS version (`17.4`); empty when absent. */
  version: string;
  serial: string;
  device_name: string;
  /** Where the customer was sent afterwards (the 301's target, without the added parameters). */
  return_url: string;
  /** Unix seconds. */
  captured_at: number;
  verified: true;
}

/** What a reseller sees of a capture. */
export function captureView(capture: UdidCapture): Record<string, unknown> {
  return {
    capture_id: capture.capture_id,
    udid: capture.udid,
    product: capture.product,
    version: capture.version,
    device_name: capture.device_name,
    source_id: capture.source_id,
    return_url: capture.return_url,
    captured_at: capture.captured_at,
    verified: capture.verified,
  };
}

/** How long a profile's challenge may be answered. */
export const CHALLENGE_TTL_SECONDS = 15 * 60;
/** How long a ticket proves a capture (the storefront's add must come within it). */
export const TICKET_TTL_SECONDS = 24 * 60 * 60;
