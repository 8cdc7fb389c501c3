/**
 * A tenant's API key in the stack's usage plan: created with the default AWS credential chain, then attached
 * to the plan. The key value is random; it is not a secret (callers never send it: the authorizer supplies
 * it), only the name of the tenant's throttle bucket.
 */
import { APIGatewayClient, CreateApiKeyCommand, CreateUsagePlanKeyCommand } from '@aws-sdk/client-api-gateway';
import { randomBytes } from 'node:crypto';

export async function createTenantApiKey(tenantId: string, usagePlanId: string): Promise<string> {
  const value = `tenant-${randomBytes(24).toString('base64url')}`;
  const client = new APIGatewayClient({});
  try {
    const key = await client.send(new CreateApiKeyCommand({ name: `tenant-${tenantId}`, description: `Usage-plan key of tenant ${tenantId}`, value, enabled: true }));
    if (!key.id) throw new Error('API Gateway returned no key id');
    await client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: key.id, keyType: 'API_KEY' }));
    return value;
  } finally {
    client.destroy();
  }
}
