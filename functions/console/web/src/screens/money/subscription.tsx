/** The plan and subscription (`/api/appstore/manage/subscription`): state, limits and usage; buy a plan (price confirmed first) or start the trial. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { common } from '../../components/strings';
import { formatCents, formatTime, useStrings } from '../../i18n';
import { strings } from './strings';

export function Subscription() {
  const t = useStrings(strings);
  const c = useStrings(common);
  const sub = useLoad(() => call(api.GET('/api/appstore/manage/subscription')), []);
  const balance = useLoad(() => call(api.GET('/api/user/balance')), []);
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const post = async (body: { plan?: string; trial?: boolean }) => {
    setBusy(true);
    setError(undefined);
    try {
      await call(api.POST('/api/appstore/manage/subscription', { body }));
      setConfirming(undefined);
      sub.reload();
      balance.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const currency = balance.state === 'ok' ? balance.data.currency : undefined;

  return (
    <section aria-labelledby="sub-title">
      <h1>{t('title')}</h1>
      <h2 id="sub-title" class="section-title">
        {t('subscription')}
      </h2>
      <Loaded load={sub}>
        {(s) => (
          <div class="card" id="subscription">
            <p>
              <span class={`badge ${s.status === 'active' ? 'on' : s.status === 'expired' ? 'off' : ''}`}>{t(`status_${s.status}`)}</span> {s.plan ? <strong>{s.plan.name}</strong> : null}{' '}
              {s.is_trial ? <span class="badge">{t('trial_badge')}</span> : null}
            </p>
            {s.expires_at ? <p>{t('expires', { time: formatTime(s.expires_at) })}</p> : null}
            {s.limits ? <p class="muted">{t('usage', { used: s.usage.sources, allowed: s.limits.sources })}</p> : null}
            {balance.state === 'ok' ? <p class="muted">{formatCents(balance.data.balance, currency)}</p> : null}
            <FormError error={error} fields={[]} />
            {s.trial_available && s.trial ? (
              <div class="actions">
                <button type="button" class="btn" id="start-trial" disabled={busy} onClick={() => post({ trial: true })}>
                  {t('trial', { days: s.trial.days })}
                </button>
              </div>
            ) : null}
            <h3>{t('plans')}</h3>
            {s.plans.length === 0 ? <p class="muted">{t('no_plans')}</p> : null}
            <ul class="plans">
              {s.plans.map((plan) => (
                <li key={plan.plan_id} class="plan" data-plan={plan.plan_id}>
                  <div>
                    <strong>{plan.name}</strong> {s.plan?.plan_id === plan.plan_id ? <span class="badge on">{t('current')}</span> : null}
                    <p class="muted">{t('plan_line', { days: plan.days, sources: plan.sources, apps: plan.apps_per_source, published: plan.published_per_source })}</p>
                  </div>
                  {confirming === plan.plan_id ? (
                    <div class="confirm" role="group" aria-label={plan.name}>
                      <p>{t('buy_confirm', { price: formatCents(plan.price, currency), name: plan.name })}</p>
                      <div class="actions">
                        <button type="button" class="btn" disabled={busy} onClick={() => post({ plan: plan.plan_id })}>
                          {t('confirm')}
                        </button>
                        <button type="button" class="btn secondary" disabled={busy} onClick={() => setConfirming(undefined)}>
                          {c('cancel')}
                        </button>
                      </div>
                    </div>
                  ) : (
                    <button type="button" class="btn secondary" disabled={busy} onClick={() => (setError(undefined), setConfirming(plan.plan_id))}>
                      {t('buy', { price: formatCents(plan.price, currency) })}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
      </Loaded>
    </section>
  );
}
