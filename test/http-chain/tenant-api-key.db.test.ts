/** The usage plan's authorizer: the API key of the Host's tenant, else the default tenant's. */
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { handler, stageWildcard } from '../../functions/tenant-api-key/handler';
import { createTenant } from '../../shared/domain/tenants/tenant-service';
import { DEFAULT_API_KEY_ENV } from '../../shared/domain/tenants/api-key';
import { useIsolatedTables } from '../support/tables';

const methodArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/POST/api/adddevice/v2';
const event = (headers: Record<string, string>) => ({ type: 'REQUEST', methodArn, headers }) as unknown as APIGatewayRequestAuthorizerEvent;
let keyed: string;
let unkeyed: string;

beforeAll(async () => {
  await useIsolatedTables();
  process.env[DEFAULT_API_KEY_ENV] = 'default-0000-the-default-tenant-key';
  keyed = (await createTenant({ name: 'Keyed', domain: 'shop.example.com' }, 1, async () => 'tenant-key-of-shop-example-com')).tenantId;
  unkeyed = (await createTenant({ name: 'Local', domain: 'local.example.com' }, 1)).tenantId;
});

test('a tenant’s host gets the tenant’s key, whatever the header case and port, for every method of the stage', async () => {
  const answer = await handler(event({ host: 'Shop.Example.COM:443' }));
  expect(answer).toEqual({
    principalId: keyed,
    usageIdentifierKey: 'tenant-key-of-shop-example-com',
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*' }] },
    context: { tenantId: keyed },
  });
  expect((await handler(event({ Host: 'shop.example.com' }))).usageIdentifierKey).toBe('tenant-key-of-shop-example-com');
});

test('an unknown host, and a tenant without a key of its own, count against the default tenant’s key', async () => {
  expect(await handler(event({ Host: 'abc123.execute-api.eu-west-1.amazonaws.com' }))).toMatchObject({ principalId: 'default', usageIdentifierKey: 'default-0000-the-default-tenant-key' });
  expect(await handler(event({ Host: 'local.example.com' }))).toMatchObject({ principalId: unkeyed, usageIdentifierKey: 'default-0000-the-default-tenant-key' });
});

test('without a default key the authorizer fails (API Gateway answers 500 and caches nothing) rather than answering without one', async () => {
  const saved = process.env[DEFAULT_API_KEY_ENV];
  delete process.env[DEFAULT_API_KEY_ENV];
  try {
    await expect(handler(event({ Host: 'nobody.example.com' }))).rejects.toThrow(DEFAULT_API_KEY_ENV);
  } finally {
    process.env[DEFAULT_API_KEY_ENV] = saved;
  }
});

test('the policy covers the whole stage, because the answer is reused for every method of that host', () => {
  expect(stageWildcard('arn:aws:execute-api:us-east-1:1:api9/prod/GET/api/rjy/s1/appstore')).toBe('arn:aws:execute-api:us-east-1:1:api9/prod/*');
});
