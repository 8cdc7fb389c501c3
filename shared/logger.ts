import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { config } from './config';

/** One Powertools logger per container; the service name comes from POWERTOOLS_SERVICE_NAME when deployed. */
export const logger = new Logger({ serviceName: config().serviceName });

/**
 * A scheduled job's handler with the Lambda context on every log line (the EventBridge event says nothing
 * worth logging, so it is not logged). The event and context reach `run` for the one job that also takes
 * another kind of event (the reservation worker: the download lines' log subscription).
 */
export function withLambdaContext<R>(run: (event: unknown, context: { getRemainingTimeInMillis(): number }) => Promise<R>) {
  return middy().use(injectLambdaContext(logger, { logEvent: false })).handler(run);
}
