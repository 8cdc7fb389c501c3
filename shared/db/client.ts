import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

let cached: { endpoint: string | undefined; client: DynamoDBDocumentClient } | undefined;

/**
 * The document client, created once per container (and again only if the endpoint changes, which happens
 * when tests point the same process at another DynamoDB Local).
 */
export function documentClient(): DynamoDBDocumentClient {
  const { dynamoEndpoint: endpoint, awsRegion, localCredentials } = config();
  if (cached && cached.endpoint === endpoint) return cached.client;
  const base = new DynamoDBClient({
    region: awsRegion,
    ...(endpoint
      ? {
          endpoint,
          // DynamoDB Local accepts any credentials; real AWS uses the default provider chain.
          credentials: localCredentials,
        }
      : {}),
  });
  // The SDK's logger middleware filters every call's input and output for its logger even when that logger is
  // the default no-op one; this product gives the SDK no logger, so the filtering is pure cost on every call.
  base.middlewareStack.remove('loggerMiddleware');
  const client = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  cached = { endpoint, client };
  return client;
}
