import type { DeviceSelector } from '../../shared/domain/devices/device-service';
import type { RequestState } from '../../shared/http/request-state';
import { parseSelector } from '../../shared/validation/device-selector';

export function parseRequest({ params }: Pick<RequestState, 'params'>): { selector: DeviceSelector } {
  return { selector: parseSelector(params) };
}
