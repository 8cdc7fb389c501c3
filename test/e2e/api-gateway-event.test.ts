import { APIGatewayProxyEventSchema } from '@aws-lambda-powertools/parser/schemas';
import { compilePath, toApiGatewayEvent } from '../../infra/local/api-gateway-event';
import { routeFor } from '../../shared/routes';

describe('local API Gateway events', () => {
  test('a POST with a JSON body and query parameters is a valid REST (v1) proxy event', () => {
    const route = routeFor('publish-app');
    const event = toApiGatewayEvent(
      {
        method: 'post',
        url: new URL('/api/appstore/manage/sources/s1/apps/7/publish?a=1&a=2&b=x', 'http://localhost'),
        rawHeaders: ['Host', 'localhost:3000', 'Content-Type', 'application/json', 'X-Lang', 'en'],
        body: Buffer.from('{"x":1}'),
        sourceIp: '127.0.0.1',
      },
      route,
      { source_id: 's1', app_id: '7' },
    );
    expect(APIGatewayProxyEventSchema.safeParse(event).success).toBe(true);
    expect(event).toMatchObject({
      resource: route.path,
      path: '/api/appstore/manage/sources/s1/apps/7/publish',
      httpMethod: 'POST',
      pathParameters: { source_id: 's1', app_id: '7' },
      queryStringParameters: { a: '2', b: 'x' },
      multiValueQueryStringParameters: { a: ['1', '2'], b: ['x'] },
      body: '{"x":1}',
      isBase64Encoded: false,
    });
    expect(event.requestContext.identity.sourceIp).toBe('127.0.0.1');
  });

  test('a GET without body or query is valid too, with nulls where API Gateway sends them', () => {
    const route = routeFor('source-feed');
    const event = toApiGatewayEvent({ method: 'GET', url: new URL('/api/rjy/s1/appstore', 'http://localhost'), rawHeaders: [], body: Buffer.alloc(0), sourceIp: '10.0.0.1' }, route, { source_id: 's1' });
    expect(APIGatewayProxyEventSchema.safeParse(event).success).toBe(true);
    expect(event.body).toBeNull();
    expect(event.queryStringParameters).toBeNull();
  });

  test('path templates match their parameters and nothing else', () => {
    const match = compilePath('/api/appstore/manage/sources/{source_id}/apps/{app_id}/publish');
    expect(match('/api/appstore/manage/sources/abc/apps/12/publish')).toEqual({ source_id: 'abc', app_id: '12' });
    expect(match('/api/appstore/manage/sources/abc/apps/12')).toBeUndefined();
    expect(match('/api/appstore/manage/sources/a/b/apps/12/publish')).toBeUndefined();
  });
});
