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

/** What the owner's `udid.captured` event tells of a capture (never the serial number). */
const EVENT_FIELDS = ['capture_id', 'udid', 'product', 'version', 'device_name', 'source_id', 'captured_at'] as const;

const pick = <K extends keyof UdidCapture>(capture: UdidCapture, fields: readonly K[]) => Object.fromEntries(fields.map((field) => [field, capture[field]])) as Pick<UdidCapture, K>;

/** The data of the capture's `udid.captured` event. */
export const captureEventData = (capture: UdidCapture) => pick(capture, EVENT_FIELDS);

/** What a reseller sees of a capture: the event's fields, where the customer was sent, and that it was verified. */
export function captureView(capture: UdidCapture): Record<string, unknown> {
  return pick(capture, [...EVENT_FIELDS, 'return_url', 'verified']);
}

/** How long a profile's challenge may be answered. */
export const CHALLENGE_TTL_SECONDS = 15 * 60;
/** How long a ticket proves a capture (the storefront's add must come within it). */
export const TICKET_TTL_SECONDS = 24 * 60 * 60;
