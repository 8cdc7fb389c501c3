/**
 * API Gateway's own answers (throttling, unknown routes, size, timeouts) are the service's envelope in the
 * synthesized template, rendered here as API Gateway would: `$context.requestTimeEpoch` filled in.
 */
import { gatewayAnswers } from '../../shared/http/gateway-answers';
import { sharedSynth } from '../support/shared-synth';

const s = await sharedSynth();
const responses = Object.values(s.json.Resources).filter((r) => r.Type === 'AWS::ApiGateway::GatewayResponse');

/** What a client receives: the template with the request's epoch milliseconds substituted. */
function render(type: string, requestTimeEpoch: number) {
  const response = responses.find((r) => r.Properties!.ResponseType === type);
  if (!response) throw new Error(`no gateway response ${type}`);
  const props = response.Properties as { StatusCode: string; ResponseTemplates: Record<string, string>; ResponseParameters: Record<string, string> };
  const body = JSON.parse(props.ResponseTemplates['application/json']!.replaceAll('$context.requestTimeEpoch', String(requestTimeEpoch))) as Record<string, unknown>;
  return { status: Number(props.StatusCode), body, headers: props.ResponseParameters };
}

test('a gateway throttle answers the envelope with code 429 and data.error rate_limited', () => {
  const { status, body, headers } = render('THROTTLED', 1_795_000_000_123);
  expect(status).toBe(429);
  expect(body).toEqual({ code: 429, msg: 'Too many requests: slow down and retry shortly', time: 1_795_000_000_123, data: { error: 'rate_limited' } });
  expect(headers['gatewayresponse.header.X-Content-Type-Options']).toBe("'nosniff'");
  expect(headers['gatewayresponse.header.Content-Type']).toBe("'application/json; charset=utf-8'");
});

test('an unknown path or method answers 404 not_found, not API Gateway’s 403', () => {
  expect(render('MISSING_AUTHENTICATION_TOKEN', 1)).toMatchObject({ status: 404, body: { code: 404, data: { error: 'not_found' } } });
});

test.each(gatewayAnswers.map((a) => [a.type, a] as const))('%s: code equals the HTTP status, English msg, a data.error reason, time in ms', (type, answer) => {
  const { status, body } = render(type, 42);
  expect(status).toBe(answer.status);
  expect(body.code).toBe(status);
  expect(typeof body.msg).toBe('string');
  expect(body.time).toBe(42);
  expect(body.data).toEqual({ error: answer.error });
});

test('the usual suspects are all covered', () => {
  const types = responses.map((r) => r.Properties!.ResponseType);
  for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX', 'THROTTLED', 'UNAUTHORIZED', 'MISSING_AUTHENTICATION_TOKEN', 'REQUEST_TOO_LARGE', 'INTEGRATION_TIMEOUT']) expect(types).toContain(type);
  expect(new Set(types).size).toBe(types.length);
});
