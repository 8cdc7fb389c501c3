/** A source's news: the items the feed lists (at most the API's limit), post one, delete one. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { formatTime, useStrings } from '../../i18n';
import { strings } from './strings';

const FIELDS = ['title', 'caption', 'date', 'image_url', 'url', 'app_id', 'tint_color'] as const;
type Name = (typeof FIELDS)[number];
type Key = Parameters<ReturnType<typeof useStrings<keyof typeof strings>>>[0];
const EMPTY: Record<Name, string> = { title: '', caption: '', date: '', image_url: '', url: '', app_id: '', tint_color: '' };

export function News({ sourceId }: { sourceId: string }) {
  const t = useStrings(strings);
  const list = useLoad(() => call(api.GET('/api/appstore/manage/sources/{source_id}/news', { params: { path: { source_id: sourceId } } })).then((d) => d as Extract<typeof d, { news: unknown }>), [sourceId]);
  const [values, setValues] = useState(EMPTY);
  const [notify, setNotify] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [deleteError, setDeleteError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const post = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const body: Record<string, unknown> = {};
    for (const name of FIELDS) {
      const v = values[name].trim();
      if (!v) continue;
      // datetime-local is the reader's local time: sent as Unix seconds.
      body[name] = name === 'date' ? Math.floor(new Date(v).getTime() / 1000) : v;
    }
    if (notify) body.notify = 1;
    try {
      await call(api.POST('/api/appstore/manage/sources/{source_id}/news', { params: { path: { source_id: sourceId } }, body: body as never }));
      setValues(EMPTY);
      setNotify(false);
      list.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const remove = async (newsId: string) => {
    setDeleteError(undefined);
    try {
      await call(api.DELETE('/api/appstore/manage/sources/{source_id}/news/{news_id}', { params: { path: { source_id: sourceId, news_id: newsId } } }));
      list.reload();
    } catch (err) {
      setDeleteError(err);
    }
  };

  return (
    <section aria-labelledby="news-title">
      <h2 id="news-title">{t('tab_news')}</h2>
      <form class="card" id="news-form" onSubmit={post} aria-label={t('news_post')}>
        <div class="filters">
          {FIELDS.filter((n) => n !== 'caption').map((name) => (
            <Field key={name} label={t(`news_${name}` as Key)} name={name} error={error}>
              {(p) => (
                <input
                  {...p}
                  type={(name === 'date' ? 'datetime-local' : name.endsWith('url') ? 'url' : 'text') as 'text'}
                  value={values[name]}
                  onInput={(e) => setValues({ ...values, [name]: e.currentTarget.value })}
                  {...(name === 'title' ? { required: true, maxLength: 100 } : {})}
                  {...(name !== 'title' ? { dir: 'ltr' } : {})}
                />
              )}
            </Field>
          ))}
        </div>
        <Field label={t('news_caption')} name="caption" error={error}>
          {(p) => <textarea {...p} rows={3} required maxLength={1000} value={values.caption} onInput={(e) => setValues({ ...values, caption: e.currentTarget.value })} />}
        </Field>
        <label class="actions">
          <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.currentTarget.checked)} /> {t('news_notify')}
        </label>
        <FormError error={error} fields={[...FIELDS]} />
        <button type="submit" class="btn" disabled={busy}>
          {t('news_post')}
        </button>
      </form>
      <FormError error={deleteError} fields={[]} />
      <Loaded load={list}>
        {(data) =>
          data.news.length === 0 ? (
            <p class="card muted">{t('news_none')}</p>
          ) : (
            <>
              <p class="muted">{t('news_count', { n: data.news.length, limit: data.limit })}</p>
              <ul class="plans" id="news-list">
                {data.news.map((n) => (
                  <li key={n.news_id} class="plan">
                    <div>
                      <strong>{n.title}</strong>
                      <p>{n.caption}</p>
                      <p class="muted">{formatTime(n.date)}</p>
                    </div>
                    <button type="button" class="btn secondary small" aria-label={t('delete_named', { name: n.title })} onClick={() => void remove(n.news_id)}>
                      {t('delete')}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )
        }
      </Loaded>
    </section>
  );
}
