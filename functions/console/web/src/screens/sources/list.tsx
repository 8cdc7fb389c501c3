/** The reseller's sources, a page at a time; create one within the plan (the API's refusal shown as it words it), delete one. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { Paging, useCursors } from '../../components/paging';
import { Loaded, useLoad } from '../../components/status';
import { common } from '../../components/strings';
import { formatTime, useStrings } from '../../i18n';
import { hrefOf, navigate } from '../../router';
import { strings } from './strings';

const PAGE = 20;

export function SourceList() {
  const t = useStrings(strings);
  const c = useStrings(common);
  const cursors = useCursors();
  const page = useLoad(
    () => call(api.GET('/api/appstore/manage/sources', { params: { query: { limit: PAGE, ...(cursors.cursor ? { cursor: cursors.cursor } : {}) } } })).then((d) => d as Extract<typeof d, { sources: unknown }>),
    [cursors.cursor],
  );
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [createError, setCreateError] = useState<unknown>(undefined);
  const [confirming, setConfirming] = useState('');
  const [deleteError, setDeleteError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState('');

  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setCreateError(undefined);
    try {
      const created = (await call(api.POST('/api/appstore/manage/sources', { body: { name: name.trim() } }))) as { source_id: string };
      navigate(['sources', created.source_id]);
    } catch (error) {
      setCreateError(error);
    } finally {
      setBusy(false);
    }
  };
  const remove = async (sourceId: string, sourceName: string) => {
    setDeleteError(undefined);
    try {
      await call(api.DELETE('/api/appstore/manage/sources/{source_id}', { params: { path: { source_id: sourceId } } }));
      setConfirming('');
      setNotice(t('deleted', { name: sourceName }));
      page.reload();
    } catch (error) {
      setDeleteError(error);
    }
  };

  return (
    <section>
      <h1>{t('title')}</h1>
      <form class="card" id="create-source" onSubmit={create} aria-labelledby="create-source-title">
        <h2 id="create-source-title">{t('create')}</h2>
        <Field label={t('name')} name="name" error={createError}>
          {(p) => <input {...p} type="text" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <FormError error={createError} fields={['name']} />
        <button type="submit" class="btn" disabled={busy}>
          {t('create_button')}
        </button>
      </form>
      {notice ? (
        <p class="success" role="status">
          {notice}
        </p>
      ) : null}
      <FormError error={deleteError} fields={[]} />
      <Loaded load={page}>
        {(data) =>
          data.sources.length === 0 ? (
            <p class="card muted">{t('none')}</p>
          ) : (
            <>
              <div class="table-wrap">
                <table class="cards" id="source-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('name')}</th>
                      <th scope="col">{t('source_id')}</th>
                      <th scope="col">{t('apps_count')}</th>
                      <th scope="col">{t('created')}</th>
                      <th scope="col">{t('actions')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.sources.map((s) => (
                      <tr key={s.source_id} data-source={s.source_id}>
                        <td data-label={t('name')}>
                          <a href={hrefOf(['sources', s.source_id])}>{s.name}</a>
                        </td>
                        <td data-label={t('source_id')} class="mono">
                          {s.source_id}
                        </td>
                        <td data-label={t('apps_count')}>{t('apps_counts', { published: s.published_count, drafts: s.draft_count })}</td>
                        <td data-label={t('created')}>{formatTime(s.created_at)}</td>
                        <td data-label={t('actions')}>
                          {confirming === s.source_id ? (
                            <span class="actions">
                              <button type="button" class="btn danger small" onClick={() => void remove(s.source_id, s.name)}>
                                {t('delete_confirm', { name: s.name })}
                              </button>
                              <button type="button" class="btn secondary small" onClick={() => setConfirming('')}>
                                {c('cancel')}
                              </button>
                            </span>
                          ) : (
                            <button type="button" class="btn secondary small" aria-label={t('delete_named', { name: s.name })} onClick={() => setConfirming(s.source_id)}>
                              {t('delete')}
                            </button>
                          )}
                        </td>
                      </tr>
                    ))}
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
