/** One source's settings as the API answers them: read by the source page, shown by its settings form. */
import { api, call } from '../../api/client';

export const loadSource = (sourceId: string) =>
  call(api.GET('/api/appstore/manage/sources/{source_id}', { params: { path: { source_id: sourceId } } })).then((d) => d as Extract<typeof d, { source_url: string }>);
export type SourceData = Awaited<ReturnType<typeof loadSource>>;
