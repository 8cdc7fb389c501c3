import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { config } from './config';

/** One Powertools logger per container; the service name comes from POWERTOOLS_SERVICE_NAME when deployed. */
export const logger = new Logger({ serviceName: config().serviceName });

/**
 * A scheduled job's handler with the Lambda context on every log line (the EventBridge event says nothing
 * worth logging, so it is not logged).
 */
export function withLambdaContext<R>(run: () => Promise<R>) {
  return middy().use(injectLambdaContext(logger, { logEvent: false })).handler(run);
}
