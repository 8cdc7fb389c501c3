/**
 * Which captures hand the customer a ticket: only those returning to one of this tenant's own customer pages
 * (a source's install page, the tenant's page). A storefront elsewhere gets the signed capture ticket as before
 * and never a ticket for our pages.
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

/** The capture's redirect, with the one-time ticket added when it returns to a customer page. */
export async function withCustomerTicket(answer: { location: string; capture: UdidCapture }, baseUrl: string, now: number): Promise<string> {
  if (!returnsToCustomerPage(answer.capture, baseUrl)) return answer.location;
  const target = new URL(answer.location);
  target.searchParams.set(TICKET_PARAM, await issueTicket(answer.capture, now));
  return target.toString();
}
