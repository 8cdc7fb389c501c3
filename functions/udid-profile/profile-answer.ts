import type { ProfileAnswer } from '../../shared/domain/udid-capture/capture-service';
import type { RawResult } from '../../shared/http/request-state';

/** A profile as the answer: binary when signed (API Gateway decodes the base64), XML text otherwise. */
export function profileResult(profile: ProfileAnswer): RawResult {
  return {
    raw: null,
    text: profile.signed ? profile.body.toString('base64') : profile.body.toString('utf8'),
    ...(profile.signed ? { base64: true } : {}),
    headers: {
      'Content-Type': profile.contentType,
      'Content-Disposition': 'attachment; filename="udid.mobileconfig"',
      'Cache-Control': 'no-store',
      'X-Profile-Signed': profile.signed ? '1' : '0',
    },
  };
}
