/**
 * Sources and apps: `#/sources` the list, `#/sources/<id>/<tab>` one source (settings, apps, news, codes,
 * block list, device URLs, link health), `#/sources/<id>/apps/<app id | new>` one app.
 */
import type { ScreenProps } from '../registry';
import { AppEditor } from './app-editor';
import { SourceView } from './source';
import { SourceList } from './list';

export default function Sources({ rest }: ScreenProps) {
  const [sourceId, tab, appId] = rest;
  if (!sourceId) return <SourceList />;
  if (tab === 'apps' && appId) return <AppEditor key={`${sourceId}/${appId}`} sourceId={sourceId} appId={appId} />;
  return <SourceView key={sourceId} sourceId={sourceId} tab={tab ?? 'settings'} />;
}
