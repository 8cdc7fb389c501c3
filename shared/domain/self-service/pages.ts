/** The customer's pages: a source's install page, or the tenant's page without a source. */
import { installPagePath } from '../udid-capture/install-page-path';

export const CUSTOMER_PAGE_PATH = '/api/customer';

export function customerPagePath(sourceId: string | undefined): string {
  return sourceId ? installPagePath(sourceId) : CUSTOMER_PAGE_PATH;
}
