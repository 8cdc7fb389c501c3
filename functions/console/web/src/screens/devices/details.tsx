/** One device (`#/devices/<kid>`): its certificate's details, and enable / disable. Another reseller's kid is the API's not-found. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { formatTime, useStrings } from '../../i18n';
import { hrefOf } from '../../router';
import { ZT } from './filters';
import { strings } from './strings';

export function DeviceDetails({ kid }: { kid: string }) {
  const t = useStrings(strings);
  const info = useLoad(() => call(api.GET('/api/device/info', { params: { query: { kid } } })), [kid]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [done, setDone] = useState('');

  const setEnabled = async (enable: boolean) => {
    setBusy(true);
    setError(undefined);
    setDone('');
    try {
      const answer = await call(api.POST('/api/device/status', { body: { kid, action: enable ? 'enable' : 'disable' } }));
      setDone(answer.status_name);
      info.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <p>
        <a href={hrefOf(['devices'])}>{t('back')}</a>
      </p>
      <h1>{t('details')}</h1>
      <Loaded load={info}>
        {(d) => (
          <div class="card" id="device-details">
            <dl class="details">
              <dt>{t('udid')}</dt>
              <dd class="udid">{d.udid}</dd>
              <dt>{t('kid')}</dt>
              <dd class="mono">{d.kid}</dd>
              <dt>{t('zt')}</dt>
              <dd>
                <span class={`badge ${d.zt}`}>{(ZT as readonly string[]).includes(d.zt) ? t(`zt_${d.zt as (typeof ZT)[number]}`) : d.zt}</span>
              </dd>
              <dt>{t('enabled')}</dt>
              <dd>
                <span class={`badge ${d.enabled ? 'on' : 'off'}`} id="device-enabled">
                  {d.enabled ? t('enabled_on') : t('enabled_off')}
                </span>
              </dd>
              <dt>{t('device_type')}</dt>
              <dd>{d.type}</dd>
              <dt>{t('warranty')}</dt>
              <dd>{d.shtype}</dd>
              <dt>{t('membership')}</dt>
              <dd>{formatTime(d.ytime)}</dd>
              <dt>{t('beizhu')}</dt>
              <dd>{d.beizhu || '—'}</dd>
            </dl>
            <div class="actions">
              {d.enabled ? (
                <button type="button" class="btn danger" disabled={busy} onClick={() => setEnabled(false)}>
                  {t('disable')}
                </button>
              ) : (
                <button type="button" class="btn" disabled={busy} onClick={() => setEnabled(true)}>
                  {t('enable')}
                </button>
              )}
            </div>
            {done ? (
              <p class="success" role="status">
                {done}
              </p>
            ) : null}
            <FormError error={error} fields={[]} />
          </div>
        )}
      </Loaded>
    </section>
  );
}
