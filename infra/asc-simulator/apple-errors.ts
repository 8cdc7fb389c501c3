import { randomUUID } from 'node:crypto';

/** The texts below are Apple's, as the live API sends them; the client branches on codes and some of these texts. */

export type ErrorSource = { pointer: string } | { parameter: string };

/** One Apple error answer: the HTTP status and the single entry of `{"errors":[…]}`. */
export class SimAppleError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly source?: ErrorSource,
  ) {
    super(detail);
  }

  toBody() {
    const { status, code, title, detail, source } = this;
    return { errors: [{ id: randomUUID(), status: String(status), code, title, detail, ...(source ? { source } : {}) }] };
  }
}

const ENTITY_TITLE = 'There is a problem with the request entity';
const NOT_FOUND_TITLE = 'The specified resource does not exist';

export const appleErrors = {
  notAuthorized: () =>
    new SimAppleError(
      401,
      'NOT_AUTHORIZED',
      'Authentication credentials are missing or invalid.',
      'Provide a properly configured and signed bearer token, and make sure that it has not expired. Learn more about Generating Tokens for API Requests https://developer.apple.com/go/?id=api-generating-tokens',
    ),
  rateLimited: () =>
    new SimAppleError(429, 'RATE_LIMIT_EXCEEDED', 'The request rate limit has been reached.', "We've received too many requests for this API. Please wait and try again or slow down your request rate."),
  notFound: (type: string, id: string) =>
    new SimAppleError(404, 'NOT_FOUND', NOT_FOUND_TITLE, `There is no resource of type '${type}' with id '${id}'`),
  unknownPath: () =>
    new SimAppleError(404, 'NOT_FOUND', NOT_FOUND_TITLE, 'The path provided does not match a defined resource type.'),
  methodNotAllowed: (method: string) =>
    new SimAppleError(405, 'METHOD_NOT_ALLOWED', 'The request method is not valid for the resource path.', `The resource does not allow '${method}'.`),
  parameterIllegal: (parameter: string) =>
    new SimAppleError(400, 'PARAMETER_ERROR.ILLEGAL', 'A parameter is not allowed for this request.', `The parameter '${parameter}' can not be used with this request.`, { parameter }),
  parameterInvalid: (parameter: string, value: string) =>
    new SimAppleError(400, 'PARAMETER_ERROR.INVALID', 'A parameter has an invalid value', `'${value}' is not a valid value for the parameter '${parameter}'.`, { parameter }),
  unparsableEntity: () =>
    new SimAppleError(422, 'ENTITY_UNPROCESSABLE', 'The request entity is not valid JSON.', 'The request body could not be parsed as JSON.'),
  attributeRequired: (pointer: string, name: string) =>
    new SimAppleError(409, 'ENTITY_ERROR.ATTRIBUTE.REQUIRED', 'An attribute value is required.', `You must provide a value for the attribute '${name}' with this request`, { pointer }),
  attributeInvalid: (pointer: string, name: string, value: unknown) =>
    new SimAppleError(409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', 'An attribute value is invalid.', `An invalid value '${String(value)}' was provided for the parameter '${name}'.`, { pointer }),
  relationshipInvalid: (relationship: string, id: string) =>
    new SimAppleError(
      409,
      'ENTITY_ERROR.RELATIONSHIP.INVALID',
      'The provided entity includes a relationship with an invalid value',
      `'${id}' is not a valid id for the relationship '${relationship}'.`,
      { pointer: `/data/relationships/${relationship}` },
    ),
  deviceExists: (udid: string) =>
    new SimAppleError(409, 'ENTITY_ERROR', ENTITY_TITLE, `A device with number '${udid}' already exists on this team.`),
  /** Apple's generic refusal, as it answers a request the key's role may not make. */
  forbidden: () =>
    new SimAppleError(403, 'FORBIDDEN_ERROR', 'This request is forbidden for security reasons', 'The API key in use does not allow this request'),
  deviceClassFull: (deviceWord: string) =>
    new SimAppleError(403, 'FORBIDDEN_ERROR', 'This request is forbidden for security reasons', `Your development team has reached the maximum number of registered ${deviceWord} devices.`),
  noCurrentDevices: (platform: string) =>
    new SimAppleError(409, 'ENTITY_ERROR', ENTITY_TITLE, `There are no current ${platform} devices on this team matching the provided device IDs.`),
  /** At the team's cap of distribution certificates (Apple allows a few current ones per team). */
  certificateLimit: () =>
    new SimAppleError(409, 'ENTITY_ERROR', ENTITY_TITLE, 'There is a problem with the request entity - You already have a current Distribution certificate or a pending certificate request.'),
  bundleIdTaken: (identifier: string) =>
    new SimAppleError(409, 'ENTITY_ERROR', ENTITY_TITLE, `An App ID with Identifier '${identifier}' is not available. Please enter a different string.`),
  entityTooLarge: () =>
    new SimAppleError(413, 'ENTITY_TOO_LARGE', 'The request entity is too large.', 'The request body exceeds the allowed size.'),
  internal: () =>
    new SimAppleError(500, 'UNEXPECTED_ERROR', 'An unexpected error occurred.', 'An unexpected error occurred on the server side.'),
};
