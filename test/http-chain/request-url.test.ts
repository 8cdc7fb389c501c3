import type { APIGatewayProxyEvent } from 'aws-lambda';
import { accepts, requestBaseUrl } from '../../shared/http/request-url';
import { defaultIdentifier, isoSeconds } from '../../shared/domain/sources/feed';
import { linkExpiry } from '../../shared/domain/sources/download-links';

const event = (over: { headers?: Record<string, string>; contextPath: string; path?: string }) =>
  ({
    resource: '/api/rjy/{source_id}/appstore',
    path: over.path ?? '/api/rjy/s1/appstore',
    pathParameters: { source_id: 's1' },
    headers: over.headers ?? {},
    requestContext: { path: over.contextPath, domainName: 'fallback.example.com' },
  }) as unknown as APIGatewayProxyEvent;

describe('absolute URLs of the feed', () => {
  test('scheme from X-Forwarded-Proto, the Host, and the base path: stage, custom domain base path, or none', () => {
    expect(requestBaseUrl(event({ headers: { host: 'abc.execute-api.us-east-1.amazonaws.com', 'x-forwarded-proto': 'https' }, contextPath: '/prod/api/rjy/s1/appstore' }))).toBe(
      'https://abc.execute-api.us-east-1.amazonaws.com/prod',
    );
    expect(requestBaseUrl(event({ headers: { host: 'shop.example.com', 'x-forwarded-proto': 'https' }, contextPath: '/v1/api/rjy/s1/appstore', path: '/v1/api/rjy/s1/appstore' }))).toBe('https://shop.example.com/v1');
    expect(requestBaseUrl(event({ headers: { host: 'shop.example.com', 'x-forwarded-proto': 'https' }, contextPath: '/api/rjy/s1/appstore' }))).toBe('https://shop.example.com');
    expect(requestBaseUrl(event({ headers: { host: '127.0.0.1:3000' }, contextPath: '/api/rjy/s1/appstore' }))).toBe('http://127.0.0.1:3000');
    // a Host that is not a host name is not echoed into links
    expect(requestBaseUrl(event({ headers: { host: 'evil.com/x?y', 'x-forwarded-proto': 'https' }, contextPath: '/api/rjy/s1/appstore' }))).toBe('https://fallback.example.com');
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
