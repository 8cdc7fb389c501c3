/**
 * One app: a new draft (`apps/new`) or an existing one. Creating sends the fields filled in; editing sends only
 * the fields changed (a published app may change its presentation only: the API says which when refused).
 * The IPA's inspection is shown as the API answers it, and the draft can be published from here.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { useStrings } from '../../i18n';
import { hrefOf, navigate } from '../../router';
import { InspectionSummary } from './inspection';
import { PublishRefusal } from './publish-result';
import { strings } from './strings';

const TEXT = ['name', 'version', 'bundle_identifier', 'developer_name', 'download_url', 'icon_url', 'size', 'tint_color', 'min_os_version', 'max_os_version'] as const;
const LONG = ['description', 'version_description', 'screenshots', 'app_permissions'] as const;
const BITS = ['type', 'lock'] as const;
const JSON_FIELDS = new Set(['screenshots', 'app_permissions']);
const LTR = new Set(['bundle_identifier', 'download_url', 'icon_url', 'tint_color', 'min_os_version', 'max_os_version', 'version', 'size', 'screenshots', 'app_permissions']);
type Name = (typeof TEXT)[number] | (typeof LONG)[number] | (typeof BITS)[number];
type Key = Parameters<ReturnType<typeof useStrings<keyof typeof strings>>>[0];

async function findApp(sourceId: string, appId: string) {
  let cursor = '';
  do {
    const page = await call(api.GET('/api/appstore/manage/sources/{source_id}/apps', { params: { path: { source_id: sourceId }, query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
    const app = page.apps.find((a) => String(a.id) === appId);
    if (app) return app;
    cursor = page.next_cursor ?? '';
  } while (cursor);
  return undefined;
}
type App = NonNullable<Awaited<ReturnType<typeof findApp>>>;

function valuesOf(app: App | undefined): Record<Name, string> {
  const json = (v: object) => (Object.values(v).some((x) => (Array.isArray(x) ? x.length : Object.keys(x as object).length)) ? JSON.stringify(v) : '');
  return {
    name: app?.name ?? '',
    version: app?.version ?? '',
    bundle_identifier: app?.bundle_identifier ?? '',
    developer_name: app?.developer_name ?? '',
    download_url: app?.download_url ?? '',
    icon_url: app?.icon_url ?? '',
    size: app?.size === null || app?.size === undefined ? '' : String(app.size),
    tint_color: app?.tint_color ?? '',
    min_os_version: app?.min_os_version ?? '',
    max_os_version: app?.max_os_version ?? '',
    description: app?.description ?? '',
    version_description: app?.version_description ?? '',
    screenshots: app ? json(app.screenshots) : '',
    app_permissions: app ? json(app.app_permissions) : '',
    type: String(app?.type ?? 0),
    lock: String(app?.lock ?? 0),
  };
}

export function AppEditor({ sourceId, appId }: { sourceId: string; appId: string }) {
  const t = useStrings(strings);
  const isNew = appId === 'new';
  const load = useLoad(() => (isNew ? Promise.resolve(undefined) : findApp(sourceId, appId)), [sourceId, appId]);
  return (
    <section>
      <p>
        <a href={hrefOf(['sources', sourceId, 'apps'])}>{t('back_to_apps')}</a>
      </p>
      <Loaded load={load}>{(app) => (!isNew && !app ? <p class="card muted">{t('app_not_found')}</p> : <AppForm sourceId={sourceId} initial={app} />)}</Loaded>
    </section>
  );
}

function AppForm({ sourceId, initial }: { sourceId: string; initial: App | undefined }) {
  const t = useStrings(strings);
  // Read again after each change without leaving the form (its notices and refusals stay on screen).
  const [app, setApp] = useState(initial);
  const [error, setError] = useState<unknown>(undefined);
  const onChanged = () => {
    if (initial) void findApp(sourceId, String(initial.id)).then((fresh) => fresh && setApp(fresh), setError);
  };
  const [values, setValues] = useState(() => valuesOf(initial));
  const [changed, setChanged] = useState<Set<Name>>(new Set());
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const [refusal, setRefusal] = useState<unknown>(undefined);
  const published = app?.publish_status === 'published';

  const set = (name: Name) => (e: Event) => {
    setValues({ ...values, [name]: (e.currentTarget as HTMLInputElement).value });
    setChanged(new Set(changed).add(name));
    setNotice('');
  };

  const body = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const name of [...TEXT, ...LONG, ...BITS]) {
      const value = values[name].trim();
      if (app ? !changed.has(name) : value === '') continue;
      if (BITS.includes(name as (typeof BITS)[number])) out[name] = Number(value);
      else if (name === 'size') out[name] = value === '' ? undefined : Number(value);
      else if (JSON_FIELDS.has(name)) out[name] = value === '' ? {} : value;
      else out[name] = value;
    }
    return out;
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setRefusal(undefined);
    try {
      if (!app) {
        const created = await call(api.POST('/api/appstore/manage/sources/{source_id}/apps', { params: { path: { source_id: sourceId } }, body: body() as never }));
        navigate(['sources', sourceId, 'apps', String(created.id)]);
        return;
      }
      await call(api.PATCH('/api/appstore/manage/sources/{source_id}/apps/{app_id}', { params: { path: { source_id: sourceId, app_id: String(app.id) } }, body: body() as never }));
      setChanged(new Set());
      setNotice(t('saved'));
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const publish = async (action: 'publish' | 'unpublish') => {
    if (!app) return;
    setBusy(true);
    setRefusal(undefined);
    setError(undefined);
    setNotice('');
    const path = { source_id: sourceId, app_id: String(app.id) };
    try {
      if (action === 'publish') await call(api.POST('/api/appstore/manage/sources/{source_id}/apps/{app_id}/publish', { params: { path } }));
      else await call(api.POST('/api/appstore/manage/sources/{source_id}/apps/{app_id}/unpublish', { params: { path } }));
      setNotice(t(`done_${action}`, { name: app.name }));
      onChanged();
    } catch (err) {
      if (action === 'publish') setRefusal(err);
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  const input = (name: Name) => {
    const long = (LONG as readonly string[]).includes(name);
    const hint = name === 'screenshots' || name === 'app_permissions' || name === 'download_url' || name === 'lock' ? t(`app_${name}_hint` as Key) : undefined;
    return (
      <Field key={name} label={t(`app_${name}` as Key)} name={name} error={error} hint={hint}>
        {(p) =>
          BITS.includes(name as (typeof BITS)[number]) ? (
            <select {...p} value={values[name]} onChange={set(name)}>
              <option value="0">{name === 'type' ? t('type_app') : t('off')}</option>
              <option value="1">{name === 'type' ? t('type_game') : t('on')}</option>
            </select>
          ) : long ? (
            <textarea {...p} rows={4} value={values[name]} onInput={set(name)} {...(LTR.has(name) ? { dir: 'ltr' } : {})} />
          ) : (
            <input
              {...p}
              type={(name === 'size' ? 'number' : name.endsWith('_url') ? 'url' : 'text') as 'text'}
              value={values[name]}
              onInput={set(name)}
              {...(LTR.has(name) ? { dir: 'ltr', spellcheck: false } : {})}
              {...(!app && (name === 'name' || name === 'version') ? { required: true } : {})}
            />
          )
        }
      </Field>
    );
  };

  return (
    <>
      <h1 id="app-title">{app ? app.name : t('new_app')}</h1>
      {app ? (
        <div class="card" id="app-state">
          <dl class="details">
            <dt>{t('app_status')}</dt>
            <dd>
              <span class={`badge ${published ? 'normal' : ''}`} id="app-status">
                {published ? t('status_published') : t('status_draft')}
              </span>
            </dd>
            <dt>{t('inspection')}</dt>
            <dd id="app-inspection">
              <InspectionSummary inspection={app.inspection} />
            </dd>
          </dl>
          <div class="actions">
            {published ? (
              <button type="button" class="btn secondary" id="unpublish-app" disabled={busy} onClick={() => void publish('unpublish')}>
                {t('unpublish')}
              </button>
            ) : (
              <button type="button" class="btn" id="publish-app" disabled={busy} onClick={() => void publish('publish')}>
                {t('publish')}
              </button>
            )}
          </div>
        </div>
      ) : null}
      {refusal && app ? <PublishRefusal error={refusal} appName={app.name} /> : null}
      {notice ? (
        <p class="success" role="status" id="app-notice">
          {notice}
        </p>
      ) : null}
      <form class="card" id="app-form" onSubmit={save} aria-labelledby="app-form-title">
        <h2 id="app-form-title">{app ? t('edit_app') : t('new_app')}</h2>
        <div class="filters">{TEXT.map(input)}</div>
        <div class="filters">{BITS.map(input)}</div>
        {LONG.map(input)}
        <FormError error={error} fields={[...TEXT, ...LONG, ...BITS]} />
        <button type="submit" class="btn" disabled={busy || (!!app && changed.size === 0)}>
          {app ? t('save') : t('create_draft')}
        </button>
      </form>
    </>
  );
}
