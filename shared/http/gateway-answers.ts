/**
 * The answers API Gateway gives by itself, before or instead of a function: throttled, unknown path or
 * method, body too large, integration timeout, … Each is shaped as the service's envelope so clients parse
 * one format. `code` is the HTTP status; `msg` is English (the gateway cannot choose a language); `data.error`
 * is a stable reason; `time` is the request time in **milliseconds** (`$context.requestTimeEpoch`: response
 * templates cannot divide), the one place the envelope's `time` is not in seconds.
 *
 * The CDK stack turns each entry into a GatewayResponse; the local runtime answers its unknown paths and
 * methods with the same entry, so a client meets the same body on a laptop.
 */
export interface GatewayAnswer {
  /** API Gateway's response type. */
  type: string;
  status: number;
  error: string;
  msg: string;
}

export const gatewayAnswers: readonly GatewayAnswer[] = [
  // API Gateway answers an unknown path or method with this type (and 403): it is a 404 to a client.
  { type: 'MISSING_AUTHENTICATION_TOKEN', status: 404, error: 'not_found', msg: 'No such route: check the path and the method' },
  { type: 'RESOURCE_NOT_FOUND', status: 404, error: 'not_found', msg: 'No such route: check the path and the method' },
  { type: 'THROTTLED', status: 429, error: 'rate_limited', msg: 'Too many requests: slow down and retry shortly' },
  { type: 'QUOTA_EXCEEDED', status: 429, error: 'quota_exceeded', msg: 'The request quota is used up for now' },
  { type: 'REQUEST_TOO_LARGE', status: 413, error: 'body_too_large', msg: 'The request is too large' },
  { type: 'UNSUPPORTED_MEDIA_TYPE', status: 415, error: 'unsupported_media_type', msg: 'Unsupported content type: send JSON or form-encoded data' },
  { type: 'BAD_REQUEST_PARAMETERS', status: 400, error: 'invalid_value', msg: 'A required path parameter is missing' },
  { type: 'BAD_REQUEST_BODY', status: 400, error: 'malformed_body', msg: 'The request body could not be parsed' },
  { type: 'UNAUTHORIZED', status: 401, error: 'token_invalid', msg: 'Invalid token' },
  { type: 'ACCESS_DENIED', status: 403, error: 'access_denied', msg: 'Access denied' },
  { type: 'INVALID_API_KEY', status: 403, error: 'access_denied', msg: 'Access denied' },
  { type: 'WAF_FILTERED', status: 403, error: 'access_denied', msg: 'Access denied' },
  { type: 'INTEGRATION_TIMEOUT', status: 504, error: 'timeout', msg: 'The service took too long to answer; nothing may have completed, please retry' },
  { type: 'INTEGRATION_FAILURE', status: 502, error: 'unavailable', msg: 'The service is unavailable, please retry shortly' },
  { type: 'AUTHORIZER_FAILURE', status: 500, error: 'internal_error', msg: 'Internal error, please try again later' },
  { type: 'AUTHORIZER_CONFIGURATION_ERROR', status: 500, error: 'internal_error', msg: 'Internal error, please try again later' },
  { type: 'API_CONFIGURATION_ERROR', status: 500, error: 'internal_error', msg: 'Internal error, please try again later' },
  { type: 'DEFAULT_4XX', status: 400, error: 'bad_request', msg: 'The request was refused' },
  { type: 'DEFAULT_5XX', status: 500, error: 'internal_error', msg: 'Internal error, please try again later' },
];

export function gatewayAnswer(type: string): GatewayAnswer {
  const answer = gatewayAnswers.find((a) => a.type === type);
  if (!answer) throw new Error(`No gateway answer ${type}`);
  return answer;
}

/** The envelope of an answer, for a request made at `timeMs`. */
export function gatewayEnvelope(answer: GatewayAnswer, timeMs: number) {
  return { code: answer.status, msg: answer.msg, time: timeMs, data: { error: answer.error } };
}
