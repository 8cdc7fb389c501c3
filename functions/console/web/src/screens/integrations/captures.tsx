/** UDID captures: the devices that proved their UDID through the reseller's profiles, newest first, paged. */
import { api, call } from '../../api/client';
import { Paging, useCursors } from '../../components/paging';
import { Loaded, useLoad } from '../../components/status';
import { formatTime, useStrings } from '../../i18n';
import { hrefOf } from '../../router';
import { strings } from './strings';

const PAGE = 20;

export function Captures() {
  const t = useStrings(strings);
  const cursors = useCursors();
  const page = useLoad(() => call(api.GET('/api/udid/captures', { params: { query: { limit: String(PAGE), ...(cursors.cursor ? { cursor: cursors.cursor } : {}) } } })), [cursors.cursor]);
  return (
    <section aria-labelledby="captures-title">
      <h2 id="captures-title">{t('tab_captures')}</h2>
      <p class="muted">{t('captures_hint')}</p>
      <Loaded load={page}>
        {(data) => (
          <>
            {data.captures.length === 0 ? (
              <p class="card muted">{t('no_captures')}</p>
            ) : (
              <div class="table-wrap">
                <table class="cards" id="capture-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('udid')}</th>
                      <th scope="col">{t('device')}</th>
                      <th scope="col">{t('ios')}</th>
                      <th scope="col">{t('source')}</th>
                      <th scope="col">{t('captured_at')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.captures.map((x) => (
                      <tr key={x.capture_id}>
                        <td data-label={t('udid')}>
                          <a class="udid" href={hrefOf(['devices'], { udid: x.udid })}>
                            {x.udid}
                          </a>
                        </td>
                        <td data-label={t('device')}>
                          {x.device_name} <span class="muted mono">{x.product}</span>
                        </td>
                        <td data-label={t('ios')}>{x.version}</td>
                        <td data-label={t('source')} class="mono">
                          {x.source_id ? <a href={hrefOf(['sources', x.source_id])}>{x.source_id}</a> : t('tenant_profile')}
                        </td>
                        <td data-label={t('captured_at')}>{formatTime(x.captured_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Paging cursors={cursors} next={data.next_cursor ?? ''} />
          </>
        )}
      </Loaded>
    </section>
  );
}
