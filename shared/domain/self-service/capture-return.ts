/**
 * Where a capture sends the device. Back to one of this tenant's own customer pages (the capture's source's
 * install page, the tenant's page): only the one-time `st`, which that page spends for the customer's session;
 * no UDID and no capture ticket, so the URL is worth nothing once opened, and nothing in it is ever rendered.
 * To a storefront (a registered return target): `udid` and the signed capture ticket, never an `st`.
 */
import type { UdidCapture } from '../../records/udid-capture';
import { installPagePath } from '../udid-capture/install-page-path';
import { CUSTOMER_PAGE_PATH } from './pages';
import { issueTicket, TICKET_PARAM } from './proof';

function samePage(url: string, page: string): boolean {
  try {
    const a = new URL(url);
    const b = new URL(page);
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

export function returnsToCustomerPage(capture: Pick<UdidCapture, 'return_url' | 'source_id'>, baseUrl: string): boolean {
  const pages = [`${baseUrl}${CUSTOMER_PAGE_PATH}`, ...(capture.source_id ? [`${baseUrl}${installPagePath(capture.source_id)}`] : [])];
  return pages.some((page) => samePage(capture.return_url, page));
}

/** The capture's redirect: the page with only its one-time ticket, or the storefront's `?udid=…&ticket=…`. */
export async function captureRedirect(answer: { location: string; capture: UdidCapture }, baseUrl: string, now: number): Promise<string> {
  if (!returnsToCustomerPage(answer.capture, baseUrl)) return answer.location;
  const target = new URL(answer.capture.return_url);
  target.searchParams.set(TICKET_PARAM, await issueTicket(answer.capture, now));
  return target.toString();
}
