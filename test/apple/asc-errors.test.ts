// Apple's error bodies (texts from the live API) mapped to the kinds the add flow branches on.
import { appleErrorFromResponse, DeviceClassFullError } from '../../shared/apple/asc-errors';

const body = (status: number, code: string, detail: string, source?: object) => ({
  errors: [{ id: 'e1', status: String(status), code, title: 'title', detail, ...(source ? { source } : {}) }],
});

describe('appleErrorFromResponse', () => {
  test.each([
    [409, 'ENTITY_ERROR', "A device with number '00008030-0123456789ABCDEF' already exists on this team.", 'device_exists'],
    // Apple has also sent duplicates under the finer attribute code: the text still decides.
    [409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', "A device with number 'abc' already exists on this team.", 'device_exists'],
    [409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', "An invalid value 'xyz' was provided for the parameter 'udid'.", 'invalid_udid'],
    [409, 'ENTITY_ERROR', 'There are no current IOS devices on this team matching the provided device IDs.', 'devices_processing'],
    [429, 'RATE_LIMIT_EXCEEDED', 'We have received too many requests for this API.', 'rate_limited'],
    [404, 'NOT_FOUND', "There is no resource of type 'certificates' with id 'ABC'", 'not_found'],
    [401, 'NOT_AUTHORIZED', 'Provide a properly configured and signed bearer token.', 'unauthorized'],
    [500, 'UNEXPECTED_ERROR', 'An unexpected error occurred on the server side.', 'unavailable'],
    [409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', "An invalid value 'WATCH' was provided for the parameter 'platform'.", 'unexpected'],
    [403, 'FORBIDDEN_ERROR', 'This request is forbidden for security reasons', 'unexpected'],
    [409, 'ENTITY_ERROR.RELATIONSHIP.INVALID', "'X' is not a valid id for the relationship 'certificates'.", 'unexpected'],
  ])('%i %s "%s" is %s', (status, code, detail, kind) => {
    const error = appleErrorFromResponse(status, body(status, code, detail));
    expect(error).toMatchObject({ kind, status, code, detail });
  });

  test('an invalid udid is recognised by its JSON pointer too', () => {
    const error = appleErrorFromResponse(
      409,
      body(409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', 'The value is invalid.', { pointer: '/data/attributes/udid' }),
    );
    expect(error.kind).toBe('invalid_udid');
  });

  test.each([
    ['iPhone', 'iphone'],
    ['iPad', 'ipad'],
    ['Mac', 'mac'],
  ])('a full %s class names the class', (word, deviceClass) => {
    const detail = `Your development team has reached the maximum number of registered ${word} devices.`;
    const error = appleErrorFromResponse(403, body(403, 'FORBIDDEN_ERROR', detail));
    expect(error).toBeInstanceOf(DeviceClassFullError);
    expect(error).toMatchObject({ kind: 'device_class_full', deviceClass, status: 403 });
  });

  test.each([
    [503, 'unavailable'],
    [502, 'unavailable'],
    [429, 'rate_limited'],
    [401, 'unauthorized'],
    [404, 'not_found'],
    [400, 'unexpected'],
  ])('a %i without Apple body falls back on the status: %s', (status, kind) => {
    expect(appleErrorFromResponse(status, '<html>gateway</html>')).toMatchObject({ kind, status, errors: [] });
  });
});
