import type { DeviceSelector } from '../../shared/domain/devices/device-service';
import { validationError } from '../../shared/domain/errors';
import type { RequestState } from '../../shared/http/request-state';
import { parseSelector } from '../../shared/validation/device-selector';
import { optionalSourceId } from '../../shared/validation/fields';

const feedSourceParam = optionalSourceId();

export function parseRequest({ params }: Pick<RequestState, 'params'>): { selector: DeviceSelector; sourceId: string | undefined } {
  const selector = parseSelector(params);
  const sourceId = feedSourceParam.safeParse(params.source_id);
  if (!sourceId.success) throw validationError('invalid_value', ['source_id']);
  return { selector, sourceId: sourceId.data };
}
