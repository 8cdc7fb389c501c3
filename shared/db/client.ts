import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsRegion, dynamoEndpoint } from '../config';

let cached: { endpoint: string | undefined; client: DynamoDBDocumentClient } | undefined;

/**
 * The document client, created once per container (and again only if the endpoint changes, which happens
 * when tests point the same process at another DynamoDB Local).
 */
export function documentClient(): DynamoDBDocumentClient {
  const endpoint = dynamoEndpoint();
  if (cached && cached.endpoint === endpoint) return cached.client;
  const base = new DynamoDBClient({
    region: awsRegion(),
    ...(endpoint
      ? {
          endpoint,
          // DynamoDB Local accepts any credentials; real AWS uses the default provider chain.
          credentials: {
            accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'local',
            secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
          },
        }
      : {}),
  });
  const client = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  cached = { endpoint, client };
  return client;
}
