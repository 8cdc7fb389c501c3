import * as z from 'zod/mini';
import type { NewsInput } from '../../shared/domain/sources/news-service';
import { SOURCE_FORMAT_LIMITS } from '../../shared/records/source-format';
import type { RequestState } from '../../shared/http/request-state';
import { appBit, appText, appUrl, bundleIdentifier, tintColor } from '../../shared/validation/app-fields';
import { parseManagementParams, supplied } from '../../shared/validation/management-params';

/** 2000-01-01 to 2100-01-01: a date a client can show, not a typo. */
const DATE_RANGE = { min: 946_684_800, max: 4_102_444_800 } as const;

/** Unix seconds (a number or plain digits) or an ISO 8601 date-time with a zone (`2026-11-23T08:00:00Z`). */
export function newsDate(value: unknown): number | null {
  const t = typeof value === 'string' ? value.trim() : value;
  let seconds: number | undefined;
  if (typeof t === 'number') seconds = t;
  else if (typeof t === 'string' && /^\d{1,12}$/.test(t)) seconds = Number(t);
  else if (typeof t === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(t)) seconds = Math.floor(Date.parse(t) / 1000);
  return seconds !== undefined && Number.isSafeInteger(seconds) && seconds >= DATE_RANGE.min && seconds <= DATE_RANGE.max ? seconds : null;
}

export const postNewsShape = {
  title: appText(SOURCE_FORMAT_LIMITS.newsTitle, { min: 1 }),
  caption: appText(SOURCE_FORMAT_LIMITS.newsCaption, { min: 1, multiline: true }),
  date: z.optional(z.pipe(z.transform(newsDate), z.number())),
  image_url: z.optional(appUrl()),
  url: z.optional(appUrl()),
  app_id: z.optional(bundleIdentifier()),
  tint_color: z.optional(tintColor()),
  notify: z.optional(appBit()),
};

/** GET lists the source's news; POST posts an item. */
type SourceNewsRequest = { sourceId: string } & ({ action: 'list' } | { action: 'post'; item: NewsInput });

export function parseRequest({ event, params, pathParams }: Pick<RequestState, 'event' | 'params' | 'pathParams'>): SourceNewsRequest {
  const sourceId = pathParams.source_id ?? '';
  if (event.httpMethod === 'GET') {
    parseManagementParams(params, { shape: {} });
    return { action: 'list', sourceId };
  }
  const { notify, tint_color, ...fields } = supplied(parseManagementParams(params, { shape: postNewsShape }));
  const item = { ...fields, ...(tint_color ? { tint_color } : {}), ...(notify === 1 ? { notify: true } : {}) } as NewsInput;
  return { action: 'post', sourceId, item };
}
