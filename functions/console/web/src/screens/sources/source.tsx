/** One source: its links (feed, install page with a QR code) above tabs for everything a reseller sets on it, and its figures. */
import { useState } from 'preact/hooks';
import { renderSVG } from 'uqr';
import { Loaded, useLoad } from '../../components/status';
import { useStrings } from '../../i18n';
import { hrefOf } from '../../router';
import { AppList } from './apps';
import { Figures } from './figures';
import { Health } from './health';
import { News } from './news';
import { Blocklist, DeviceUrls, UnlockCodes } from './protection';
import { Settings } from './settings';
import { loadSource, type SourceData } from './source-data';
import { strings } from './strings';

export const TABS = ['settings', 'apps', 'figures', 'news', 'codes', 'blocklist', 'device-urls', 'health'] as const;
export type Tab = (typeof TABS)[number];
const TAB_LABEL = { settings: 'tab_settings', apps: 'tab_apps', figures: 'tab_figures', news: 'tab_news', codes: 'tab_codes', blocklist: 'tab_blocklist', 'device-urls': 'tab_device_urls', health: 'tab_health' } as const;


function qrDataUrl(text: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(text, { ecc: 'M' }))}`;
}

export function SourceView({ sourceId, tab }: { sourceId: string; tab: string }) {
  const t = useStrings(strings);
  const source = useLoad(() => loadSource(sourceId), [sourceId]);
  // After a save the source is read again in place (the form and its notice stay on screen).
  const [fresh, setFresh] = useState<SourceData | undefined>(undefined);
  const refresh = () => void loadSource(sourceId).then(setFresh, () => source.reload());
  const current: Tab = (TABS as readonly string[]).includes(tab) ? (tab as Tab) : 'settings';
  return (
    <section>
      <p>
        <a href={hrefOf(['sources'])}>{t('back')}</a>
      </p>
      <Loaded load={source}>
        {(loaded) => {
          const s = fresh ?? loaded;
          const feed = `${location.origin}${s.source_url}`;
          const install = `${location.origin}/api/rjy/${encodeURIComponent(s.source_id)}/install`;
          return (
            <>
              <h1 id="source-name">{s.name}</h1>
              <div class="card" id="source-links">
                <dl class="details">
                  <dt>{t('source_id')}</dt>
                  <dd class="mono">{s.source_id}</dd>
                  <dt>{t('feed_url')}</dt>
                  <dd>
                    <a class="mono" id="feed-url" href={feed}>
                      {feed}
                    </a>
                  </dd>
                  <dt>{t('install_url')}</dt>
                  <dd>
                    <a class="mono" id="install-url" href={install}>
                      {install}
                    </a>
                  </dd>
                  <dt>{t('apps_count')}</dt>
                  <dd>{t('apps_counts', { published: s.published_count, drafts: s.draft_count })}</dd>
                </dl>
                <p class="qr">
                  <img id="install-qr" src={qrDataUrl(install)} alt={t('install_qr_alt', { url: install })} width={200} height={200} />
                </p>
              </div>
              <nav aria-label={t('sections')} class="actions" id="source-tabs">
                {TABS.map((id) => (
                  <a key={id} class={`btn small ${id === current ? '' : 'secondary'}`} href={hrefOf(['sources', s.source_id, id])} aria-current={id === current ? 'page' : undefined}>
                    {t(TAB_LABEL[id])}
                  </a>
                ))}
              </nav>
              {current === 'settings' ? <Settings source={s} onSaved={refresh} /> : null}
              {current === 'apps' ? <AppList sourceId={s.source_id} /> : null}
              {current === 'figures' ? <Figures sourceId={s.source_id} /> : null}
              {current === 'news' ? <News sourceId={s.source_id} /> : null}
              {current === 'codes' ? <UnlockCodes sourceId={s.source_id} /> : null}
              {current === 'blocklist' ? <Blocklist sourceId={s.source_id} /> : null}
              {current === 'device-urls' ? <DeviceUrls sourceId={s.source_id} /> : null}
              {current === 'health' ? <Health sourceId={s.source_id} /> : null}
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
