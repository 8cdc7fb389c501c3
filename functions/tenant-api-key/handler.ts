/**
 * API Gateway REQUEST authorizer: answers with the API key of the request's tenant (`usageIdentifierKey`),
 * which the usage plan throttles by. It allows every method of the stage, because API Gateway reuses the
 * answer for an hour for any request with the same `Host`; the functions authenticate callers themselves.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { apiKeyForHost } from '../../shared/domain/tenants/api-key';

/** `arn:…:execute-api:region:account:api/stage/GET/path` → `arn:…:execute-api:region:account:api/stage/*`. */
export function stageWildcard(methodArn: string): string {
  const [apiArn, stage] = methodArn.split('/');
  return `${apiArn}/${stage}/*`;
}

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const host = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'host')?.[1];
  const { tenantId, apiKey } = await apiKeyForHost(host);
  return {
    principalId: tenantId,
    usageIdentifierKey: apiKey,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stageWildcard(event.methodArn) }] },
    context: { tenantId },
  };
};
