import { validationError } from '../../shared/domain/errors';
import type { RequestState } from '../../shared/http/request-state';
import { appFieldsShape, checkOsRange, readOnlyAppFields } from '../../shared/validation/app-fields';
import { parseManagementParams, supplied } from '../../shared/validation/management-params';

export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>) {
  const fields = supplied(parseManagementParams(params, { shape: appFieldsShape, readOnly: readOnlyAppFields }));
  // A draft needs at least what names it; the rest can follow before publishing.
  const absent = (['name', 'version'] as const).filter((f) => fields[f] === undefined);
  if (absent.length) throw validationError('invalid_value', [...absent]);
  checkOsRange(fields);
  return { sourceId: pathParams.source_id ?? '', fields };
}
