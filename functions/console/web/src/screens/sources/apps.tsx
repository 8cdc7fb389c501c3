/** A source's apps, drafts and published, paged and filtered by status: publish (the IPA's inspection shown), unpublish, delete a draft. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { FormError } from '../../components/field';
import { Paging, useCursors } from '../../components/paging';
import { Loaded, useLoad } from '../../components/status';
import { common } from '../../components/strings';
import { useStrings } from '../../i18n';
import { hrefOf } from '../../router';
import { InspectionSummary } from './inspection';
import { PublishRefusal } from './publish-result';
import { strings } from './strings';

const PAGE = 20;
type Status = '' | 'draft' | 'published';

export function AppList({ sourceId }: { sourceId: string }) {
  const t = useStrings(strings);
  const c = useStrings(common);
  const [status, setStatus] = useState<Status>('');
  const cursors = useCursors();
  const page = useLoad(
    () =>
      call(
        api.GET('/api/appstore/manage/sources/{source_id}/apps', {
          params: { path: { source_id: sourceId }, query: { limit: PAGE, ...(status ? { status } : {}), ...(cursors.cursor ? { cursor: cursors.cursor } : {}) } },
        }),
      ),
    [sourceId, status, cursors.cursor],
  );
  const [refusal, setRefusal] = useState<{ error: unknown; name: string } | undefined>(undefined);
  const [actionError, setActionError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(0);

  const act = async (appId: number, name: string, action: 'publish' | 'unpublish' | 'delete') => {
    setBusy(appId);
    setRefusal(undefined);
    setActionError(undefined);
    setNotice('');
    const path = { source_id: sourceId, app_id: String(appId) };
    try {
      if (action === 'publish') await call(api.POST('/api/appstore/manage/sources/{source_id}/apps/{app_id}/publish', { params: { path } }));
      else if (action === 'unpublish') await call(api.POST('/api/appstore/manage/sources/{source_id}/apps/{app_id}/unpublish', { params: { path } }));
      else await call(api.DELETE('/api/appstore/manage/sources/{source_id}/apps/{app_id}', { params: { path } }));
      setNotice(t(`done_${action}`, { name }));
      page.reload();
    } catch (error) {
      if (action === 'publish') setRefusal({ error, name });
      else setActionError(error);
    } finally {
      setBusy(0);
    }
  };

  return (
    <section aria-labelledby="apps-title">
      <div class="actions">
        <h2 id="apps-title">{t('tab_apps')}</h2>
        <a class="btn" id="new-app" href={hrefOf(['sources', sourceId, 'apps', 'new'])}>
          {t('new_app')}
        </a>
        <label>
          <span class="visually-hidden">{t('app_status')}</span>
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.currentTarget.value as Status);
              cursors.reset();
            }}
          >
            <option value="">{c('any')}</option>
            <option value="draft">{t('status_draft')}</option>
            <option value="published">{t('status_published')}</option>
          </select>
        </label>
      </div>
      {notice ? (
        <p class="success" role="status" id="app-notice">
          {notice}
        </p>
      ) : null}
      {refusal ? <PublishRefusal error={refusal.error} appName={refusal.name} /> : null}
      <FormError error={actionError} fields={[]} />
      <Loaded load={page}>
        {(data) =>
          data.apps.length === 0 ? (
            <p class="card muted">{t('no_apps')}</p>
          ) : (
            <>
              <div class="table-wrap">
                <table class="cards" id="app-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('app_name')}</th>
                      <th scope="col">{t('app_version')}</th>
                      <th scope="col">{t('app_bundle_identifier')}</th>
                      <th scope="col">{t('app_status')}</th>
                      <th scope="col">{t('inspection')}</th>
                      <th scope="col">{t('actions')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.apps.map((a) => {
                      const published = a.publish_status === 'published';
                      return (
                        <tr key={a.id} data-app={a.id}>
                          <td data-label={t('app_name')}>
                            <a href={hrefOf(['sources', sourceId, 'apps', String(a.id)])}>{a.name}</a>
                            {a.lock ? <span class="badge processing">{t('locked')}</span> : null}
                          </td>
                          <td data-label={t('app_version')} class="mono">
                            {a.version}
                          </td>
                          <td data-label={t('app_bundle_identifier')} class="mono">
                            {a.bundle_identifier}
                          </td>
                          <td data-label={t('app_status')}>
                            <span class={`badge ${published ? 'normal' : ''}`}>{published ? t('status_published') : t('status_draft')}</span>
                          </td>
                          <td data-label={t('inspection')}>
                            <InspectionSummary inspection={a.inspection} />
                          </td>
                          <td data-label={t('actions')}>
                            <span class="actions">
                              {published ? (
                                <button type="button" class="btn secondary small" disabled={busy === a.id} onClick={() => void act(a.id, a.name, 'unpublish')}>
                                  {t('unpublish')}
                                </button>
                              ) : (
                                <>
                                  <button type="button" class="btn small publish" disabled={busy === a.id} onClick={() => void act(a.id, a.name, 'publish')}>
                                    {t('publish')}
                                  </button>
                                  <button type="button" class="btn secondary small" disabled={busy === a.id} aria-label={t('delete_named', { name: a.name })} onClick={() => void act(a.id, a.name, 'delete')}>
                                    {t('delete')}
                                  </button>
                                </>
                              )}
                            </span>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
              <Paging cursors={cursors} next={data.next_cursor ?? ''} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}
