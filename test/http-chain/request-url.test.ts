import type { APIGatewayProxyEvent } from 'aws-lambda';
import { accepts, requestBaseUrl } from '../../shared/http/request-url';
import { defaultIdentifier, isoSeconds } from '../../shared/domain/sources/feed';
import { linkExpiry } from '../../shared/domain/sources/download-links';

const event = (over: { headers?: Record<string, string>; contextPath: string; path?: string; domainName?: string }) =>
  ({
    resource: '/api/rjy/{source_id}/appstore',
    path: over.path ?? '/api/rjy/s1/appstore',
    pathParameters: { source_id: 's1' },
    headers: over.headers ?? {},
    requestContext: { path: over.contextPath, domainName: over.domainName ?? 'fallback.example.com' },
  }) as unknown as APIGatewayProxyEvent;

const defaultTenant = { domain: undefined };
const shop = { domain: 'shop.example.com' };

describe('absolute URLs of the feed', () => {
  test('scheme from X-Forwarded-Proto, the host, and the base path: stage, custom domain base path, or none', () => {
    const executeApi = 'abc.execute-api.us-east-1.amazonaws.com';
    expect(requestBaseUrl(event({ headers: { host: executeApi, 'x-forwarded-proto': 'https' }, domainName: executeApi, contextPath: '/prod/api/rjy/s1/appstore' }), defaultTenant)).toBe(
      `https://${executeApi}/prod`,
    );
    expect(requestBaseUrl(event({ headers: { host: 'shop.example.com', 'x-forwarded-proto': 'https' }, contextPath: '/v1/api/rjy/s1/appstore', path: '/v1/api/rjy/s1/appstore' }), shop)).toBe('https://shop.example.com/v1');
    // Issue 39: the tenant's domain as configured, never the caller's port.
    expect(requestBaseUrl(event({ headers: { host: 'Shop.Example.com:8443', 'x-forwarded-proto': 'https' }, contextPath: '/api/rjy/s1/appstore' }), shop)).toBe('https://shop.example.com');
    expect(requestBaseUrl(event({ headers: { host: 'shop.example.com:65535', 'x-forwarded-proto': 'https' }, contextPath: '/api/rjy/s1/appstore' }), shop)).toBe('https://shop.example.com');
    // sam local reports a bare loopback name: a loopback Host gives the port
    expect(requestBaseUrl(event({ headers: { host: '127.0.0.1:3000' }, domainName: 'localhost', contextPath: '/api/rjy/s1/appstore' }), defaultTenant)).toBe('http://127.0.0.1:3000');
  });

  test('a host is never reflected unless it is the tenant’s: any other Host gives way to the domain API Gateway reports', () => {
    const foreign = (host: string, tenant: { domain: string | undefined }) => requestBaseUrl(event({ headers: { host, 'x-forwarded-proto': 'https', 'x-forwarded-host': host }, contextPath: '/api/rjy/s1/appstore' }), tenant);
    expect(foreign('evil.example', defaultTenant)).toBe('https://fallback.example.com');
    expect(foreign('evil.example', shop)).toBe('https://fallback.example.com');
    expect(foreign('shop.example.com.evil.example', shop)).toBe('https://fallback.example.com');
    expect(foreign('evil.com/x?y', shop)).toBe('https://fallback.example.com');
    // the local runtime's own address (what it received the request on) is what it reports
    expect(requestBaseUrl(event({ headers: { host: 'evil.example' }, domainName: '127.0.0.1:3440', contextPath: '/api/rjy/s1/appstore' }), defaultTenant)).toBe('http://127.0.0.1:3440');
    // a loopback Host is no way around it where the runtime is not local
    expect(foreign('127.0.0.1:1', defaultTenant)).toBe('https://fallback.example.com');
  });

  test('default identifiers, dates and link expiry', () => {
    expect(defaultIdentifier('shop.example.com', 's1')).toBe('com.example.shop.s1');
    expect(defaultIdentifier('127.0.0.1', 's1')).toBe('local.s1');
    expect(defaultIdentifier('localhost', 's1')).toBe('local.s1');
    expect(defaultIdentifier('::1', 's1')).toBe('local.s1');
    expect(isoSeconds(1_700_000_000)).toBe('2023-11-14T22:13:20Z');
    // lifetime between half and all of the TTL, constant within a half-TTL window
    expect(linkExpiry(1_800, 3_600)).toBe(5_400);
    expect(linkExpiry(3_599, 3_600)).toBe(5_400);
    expect(linkExpiry(3_600, 3_600)).toBe(7_200);
  });

  test('Accept negotiation', () => {
    const withAccept = (accept: string) => ({ headers: { accept } }) as unknown as APIGatewayProxyEvent;
    expect(accepts(withAccept('application/jose'), 'application/jose')).toBe(true);
    expect(accepts(withAccept('application/json, application/JOSE;q=0.5'), 'application/jose')).toBe(true);
    expect(accepts(withAccept('application/jose;q=0'), 'application/jose')).toBe(false);
    expect(accepts(withAccept('*/*'), 'application/jose')).toBe(false);
  });
});
