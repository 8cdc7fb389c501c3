export type PublishStatus = 'draft' | 'published';

/** `status` integer: 0 = draft (hidden from the feed), 1 = published (listed in the feed). */
export const APP_STATUS = { draft: 0, published: 1 } as const;

export interface App {
  id: number;
  source_id: string;
  name: string;
  version: string;
  download_url: string;
  status: number;
  publish_status: PublishStatus;
  created_at: number;
  published_at: number | undefined;
}

/** The allowlisted fields the publish response shows to the source owner. */
export function appView(app: App): Record<string, unknown> {
  return {
    id: app.id,
    source_id: app.source_id,
    name: app.name,
    version: app.version,
    download_url: app.download_url,
    status: app.status,
    publish_status: app.publish_status,
  };
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A draft can be published only with a name, a version and an http(s) download URL. */
export function isCompleteDraft(app: Pick<App, 'name' | 'version' | 'download_url'>): boolean {
  return app.name.trim() !== '' && app.version.trim() !== '' && isHttpUrl(app.download_url.trim());
}
