import * as z from 'zod/mini';
import { validationError } from '../../shared/domain/errors';
import type { RequestState } from '../../shared/http/request-state';
import { echoedSourceShape } from '../../shared/validation/echoed-source';
import { positiveInt } from '../../shared/validation/fields';
import { parseManagementParams } from '../../shared/validation/management-params';

const appId = positiveInt();

/** Both path parameters may be echoed in the query or body; they must then name the same source and app. */
const echoedPathShape = { ...echoedSourceShape, app_id: z.optional(appId) };

export function parseRequest({ params, pathParams }: Pick<RequestState, 'params' | 'pathParams'>): { sourceId: string; appId: number } {
  const echoed = parseManagementParams(params, { shape: echoedPathShape });
  const id = appId.safeParse(pathParams.app_id);
  if (!id.success) throw validationError('invalid_value', ['app_id']);
  const sourceId = pathParams.source_id ?? '';
  const mismatched = [
    ...(echoed.source_id !== undefined && echoed.source_id !== sourceId ? ['source_id'] : []),
    ...(echoed.app_id !== undefined && echoed.app_id !== id.data ? ['app_id'] : []),
  ];
  if (mismatched.length) throw validationError('invalid_value', mismatched);
  return { sourceId, appId: id.data };
}
