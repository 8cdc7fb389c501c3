import type { RequestState } from '../../shared/http/request-state';
import { parseManagementParams } from '../../shared/validation/management-params';

/** The ping takes no parameters. */
export function parseRequest({ params }: Pick<RequestState, 'params'>): void {
  parseManagementParams(params, { shape: {} });
}
