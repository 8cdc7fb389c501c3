import { Logger } from '@aws-lambda-powertools/logger';

/** One Powertools logger per container; the service name comes from POWERTOOLS_SERVICE_NAME when deployed. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'appsource' });
