import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKey,
  ApiKeySourceType,
  AuthorizationType,
  IdentitySource,
  RequestAuthorizer,
  type UsagePlan,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RestApi,
  type IResource,
  type Method,
  type MethodDeploymentOptions,
  type RequestValidator,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { AuthorizerDefinition, RouteDefinition } from '../../../shared/routes';
import { stageThrottle, tenantThrottle } from '../throttles';
import { FEED_CACHE_SIZE_GB, type CachedMethod } from '../feed-cache';
import { addEnvelopeGatewayResponses } from './gateway-responses';

export const STAGE_NAME = 'prod';

/**
 * One JSON line per request. `status` is written as a number so metric filters can compare it, and
 * `responseType` names the gateway response when API Gateway answered itself (THROTTLED for its 429s).
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseType: '$context.error.responseType',
} as const;

export interface ServiceApiProps {
  routes: readonly { route: RouteDefinition; handler: IFunction }[];
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  /** Create API Gateway's account-wide logging role, or rely on the account's. */
  createAccountRole: boolean;
  /** Execution logging level of every method. */
  logLevel: MethodLoggingLevel;
  /** The authorizer that supplies each request's API key (its tenant's). */
  apiKeyAuthorizer: { definition: AuthorizerDefinition; handler: IFunction };
  /** Value of the default tenant's API key (hosts without a tenant key of their own). */
  defaultApiKey: string;
  /** The one method the stage cache serves, and for how long (seconds); no cache when absent. */
  cache?: { method: CachedMethod; ttlSeconds: number };
}

/** The API Gateway resources a route's methods sit on: its path, and the greedy one below it where it serves subpaths. */
export function resourcePaths(route: RouteDefinition): string[] {
  return route.subpaths ? [route.path, `${route.path}/{proxy+}`] : [route.path];
}

/** `{source_id}` segments of a route path. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/**
 * The REST API: one Lambda proxy method per route-table method, throttled at the stage per method (all
 * callers) and per tenant in a usage plan. Every method requires an API key, which no caller sends: the
 * authorizer supplies the key of the request's tenant (by `Host`), cached per host. No CORS: the contract's
 * clients are device apps and resellers' servers, not browsers.
 */
export class ServiceApi extends Construct {
  readonly api: RestApi;
  readonly accessLogs: LogGroup;
  readonly usagePlan: UsagePlan;
  readonly methods: { route: RouteDefinition; method: Method }[] = [];

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention, removalPolicy: props.removalPolicy });
    this.accessLogs = accessLogs;

    // A method's own settings replace the stage-wide ones entirely, so each one repeats the logging level:
    // without it, execution logging would be off on every method that has a throttle.
    const logging = { loggingLevel: props.logLevel, dataTraceEnabled: false };
    const cache = props.cache;
    const isCached = (route: RouteDefinition, method: string) => cache !== undefined && cache.method.route.path === route.path && cache.method.method === method;
    // Caching is off on every method but the cached one, said explicitly: a stage with a cache would
    // otherwise cache every GET method (device info answers by token, for one).
    const caching = (route: RouteDefinition, method: string): Partial<MethodDeploymentOptions> =>
      !cache ? {} : isCached(route, method) ? { cachingEnabled: true, cacheTtl: Duration.seconds(cache.ttlSeconds), cacheDataEncrypted: true } : { cachingEnabled: false };
    const methodOptions: Record<string, MethodDeploymentOptions> = {};
    for (const { route } of props.routes) {
      const throttle = stageThrottle(route);
      for (const method of route.methods) {
        for (const path of resourcePaths(route)) {
          methodOptions[`${path}/${method}`] = { ...logging, throttlingRateLimit: throttle.rateLimit, throttlingBurstLimit: throttle.burstLimit, ...caching(route, method) };
        }
      }
    }

    this.api = new RestApi(this, 'Api', {
      restApiName: `${scope.node.id}-api`,
      description: 'App source & device service',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // The built-in placeholder icon is a binary answer: its function returns it base64-encoded and API
      // Gateway decodes it for a client that asks for an image. A device's signed UDID answer arrives as
      // application/pkcs7-signature and must reach the function base64-encoded, byte for byte; a signed
      // profile is answered as application/x-apple-aspen-config.
      // The customer's certificate zip: decoded for a request that accepts application/zip (the page's download
      // button fetches it so; API Gateway decides by the request's first Accept type).
      binaryMediaTypes: ['image/png', 'image/*', 'application/pkcs7-signature', 'application/x-apple-aspen-config', 'application/zip'],
      // Usage plans meter API keys; the authorizer, not the caller, names the key.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // The role API Gateway uses to write logs is one setting per account and region: the last stack that
      // sets it wins. A fresh account needs it before any stage can log; a second stack, or an account that
      // has one, leaves it alone (-c apiGatewayAccountRole=existing). Other APIs in the account rely on it,
      // so a created role outlives this stack whatever the removal policy.
      cloudWatchRole: props.createAccountRole,
      ...(props.createAccountRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      deployOptions: {
        stageName: STAGE_NAME,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS).replace('"$context.status"', '$context.status')),
        // Request bodies carry tokens and Apple secrets: never log them (dataTraceEnabled false).
        ...logging,
        ...(cache ? { cacheClusterEnabled: true, cacheClusterSize: FEED_CACHE_SIZE_GB, cachingEnabled: false } : {}),
        methodOptions,
      },
    });

    // The stack outputs the URL under its own name (ApiUrl) next to what the operator CLI reads.
    this.api.node.tryRemoveChild('Endpoint');
    addEnvelopeGatewayResponses(this.api);

    // Every method counts against the API key the authorizer names, cached per identity (the Host).
    const { definition, handler: authorizerHandler } = props.apiKeyAuthorizer;
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerHandler,
      identitySources: definition.identityHeaders.map((header) => IdentitySource.header(header)),
      resultsCacheTtl: Duration.seconds(definition.cacheSeconds),
    });
    // Path parameters are the only request part API Gateway can check here: everything else may arrive in
    // the query string or the body interchangeably, which the functions validate with zod.
    let pathValidator: RequestValidator | undefined;
    for (const { route, handler } of props.routes) {
      // A route that serves its subpaths gets the greedy resource below its own, the same function behind both.
      if (route.subpaths) {
        const below = this.api.root.resourceForPath(route.path).addProxy({ anyMethod: false });
        const integration = new LambdaIntegration(handler, { proxy: true, scopePermissionToMethod: false });
        for (const method of route.methods) {
          this.methods.push({
            route,
            method: below.addMethod(method, integration, {
              operationName: `${route.function}-files-${method.toLowerCase()}`,
              authorizer,
              authorizationType: AuthorizationType.CUSTOM,
              apiKeyRequired: true,
              requestParameters: { 'method.request.path.proxy': true },
              requestValidator: (pathValidator ??= this.api.addRequestValidator('PathParameters', { validateRequestParameters: true, validateRequestBody: false })),
            }),
          });
        }
      }
      const resource: IResource = this.api.root.resourceForPath(route.path);
      // One invoke permission per function, for this API (not one per method and stage): the function serves
      // only its own route's methods anyway, and it keeps the stack well under CloudFormation's 500 resources.
      const integration = new LambdaIntegration(handler, { proxy: true, scopePermissionToMethod: false });
      const params = pathParameters(route.path);
      if (params.length) pathValidator ??= this.api.addRequestValidator('PathParameters', { validateRequestParameters: true, validateRequestBody: false });
      const pathParams = params.map((p) => `method.request.path.${p}`);
      for (const method of route.methods) {
        // The cached method declares its key's parameters (optional ones: API Gateway checks only the path's
        // presence) and gets an integration of its own that names them as the cache key.
        const cacheKey = cache && isCached(route, method) ? [...pathParams, ...cache.method.keyParameters] : undefined;
        const requestParameters = Object.fromEntries([...pathParams.map((p) => [p, true]), ...(cacheKey ?? []).filter((p) => !pathParams.includes(p)).map((p) => [p, false])]);
        this.methods.push({
          route,
          method: resource.addMethod(method, cacheKey ? new LambdaIntegration(handler, { proxy: true, scopePermissionToMethod: false, cacheKeyParameters: cacheKey }) : integration, {
            operationName: `${route.function}-${method.toLowerCase()}`,
            authorizer,
            authorizationType: AuthorizationType.CUSTOM,
            apiKeyRequired: true,
            ...(Object.keys(requestParameters).length ? { requestParameters, ...(params.length ? { requestValidator: pathValidator } : {}) } : {}),
          }),
        });
      }
    }

    this.usagePlan = this.api.addUsagePlan('TenantPlan', {
      name: `${scope.node.id}-tenants`,
      description: 'Per-tenant edge throttles (one API key per tenant, supplied by the authorizer); the functions enforce the exact per-minute limits.',
      apiStages: [
        {
          api: this.api,
          stage: this.api.deploymentStage,
          throttle: this.methods.map(({ route, method }) => ({ method, throttle: tenantThrottle(route) })),
        },
      ],
    });
    const defaultKey = new ApiKey(this, 'DefaultTenantKey', {
      description: 'Usage-plan key of the default tenant: hosts no tenant owns, and tenants without a key of their own',
      value: props.defaultApiKey,
      enabled: true,
    });
    this.usagePlan.addApiKey(defaultKey);

    if (props.logLevel === MethodLoggingLevel.OFF) {
      Validations.of(this.api).acknowledge({
        id: 'AwsSolutions-APIG6',
        reason: 'The operator turned execution logging off on purpose (-c apiLogLevel=OFF, e.g. for cost); access logs of every request stay on.',
      });
    }
    Validations.of(this.api).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason: 'Parameters may arrive in the query string or the body (JSON or form) interchangeably (contract); each function validates them with zod and answers a localized error. API Gateway validates the path parameters.',
      },
      {
        id: 'AwsSolutions-APIG3',
        reason: 'WAF is an account-level choice of the operator (cost, rules); throttles at the stage and exact per-owner limits in the functions guard the API.',
      },
      {
        id: 'AwsSolutions-APIG4',
        reason: 'The contract authenticates in the function: a Bearer token or a `token` parameter in the query or body, with contract-specific error envelopes; the feed is public by design.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason: 'Callers hold the service’s own API tokens (contract), not Cognito identities; the functions authenticate them.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason: 'AmazonAPIGatewayPushToCloudWatchLogs is the policy AWS documents for the account-level role API Gateway needs to write access logs.',
      },
    );
  }
}
