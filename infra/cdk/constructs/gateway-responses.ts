import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { gatewayAnswers, gatewayEnvelope } from '../../../shared/http/gateway-answers';

/** Response headers of gateway answers: static values must be quoted strings in API Gateway. */
const HEADERS = {
  'Content-Type': "'application/json; charset=utf-8'",
  'X-Content-Type-Options': "'nosniff'",
  'Cache-Control': "'no-store'",
};

/** The template of an answer: the envelope with `time` filled from the request's epoch milliseconds. */
export function gatewayTemplate(answer: (typeof gatewayAnswers)[number]): string {
  const TIME = 987654321;
  return JSON.stringify(gatewayEnvelope(answer, TIME)).replace(String(TIME), '$context.requestTimeEpoch');
}

/** API Gateway's own answers (throttles, unknown routes, timeouts, …) as the service's envelope. */
export function addEnvelopeGatewayResponses(api: RestApi): void {
  for (const answer of gatewayAnswers) {
    api.addGatewayResponse(`Gateway${answer.type}`, {
      type: ResponseType.of(answer.type),
      statusCode: String(answer.status),
      responseHeaders: HEADERS,
      templates: { 'application/json': gatewayTemplate(answer) },
    });
  }
}
