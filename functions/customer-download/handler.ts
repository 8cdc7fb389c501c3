import { certificateBundle } from '../../shared/domain/self-service/certificate-bundle';
import { createSessionHandler } from '../../shared/http/create-session-handler';
import { localize, useMessages } from '../../shared/i18n/localize';
import { customerActionMessages } from '../../shared/i18n/messages/customer-actions';
import { tokenMessages } from '../../shared/i18n/messages/token';
import { customerDownloadRoute } from '../../shared/routes/customer';
import { parseRequest } from './schema';

useMessages(customerActionMessages, tokenMessages);

/** GET /api/customer/download?kid=…: the zip of one certificate of the proven device. */
export const handler = createSessionHandler(customerDownloadRoute, async (state) => {
  const { kid } = parseRequest(state);
  const { device } = state;
  const bundle = await certificateBundle(device, state.tenant, kid, (password) => localize(state.lang, 'cp_zip_password', { password }));
  return {
    raw: null,
    text: bundle.zip.toString('base64'),
    base64: true,
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${bundle.fileName}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  };
});
