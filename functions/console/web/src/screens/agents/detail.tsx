/** One agent: its details, change, suspend or lift, top up, and its prices against this reseller's cost. */
import { useState } from 'preact/hooks';
import { Field, FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { formatCents, useStrings } from '../../i18n';
import { hrefOf } from '../../router';
import { agentsCall } from './agents-api';
import { strings } from './strings';
import { loadStorefront, StorefrontSection } from './storefront';

const loadAgent = (agentId: string) => agentsCall({ agent_id: agentId }).then((d) => d as Extract<typeof d, { prices: unknown }>);
type Agent = Awaited<ReturnType<typeof loadAgent>>;
type Price = Agent['prices'][number];
const priceKey = (p: Pick<Price, 'mode' | 'warranty' | 'device_type'>) => `${p.mode}/${p.warranty}/${p.device_type}`;

/** An amount typed in the currency's units (12.5) as cents (1250); '' when it is not one. */
function toCents(text: string): string {
  const t = text.trim().replace(',', '.');
  return /^\d+(\.\d{1,2})?$/.test(t) ? String(Math.round(Number(t) * 100)) : t;
}

export function AgentDetail({ agentId }: { agentId: string }) {
  const t = useStrings(strings);
  const load = useLoad(() => loadAgent(agentId), [agentId]);
  return (
    <section>
      <p>
        <a href={hrefOf(['agents'])}>{t('back')}</a>
      </p>
      <Loaded load={load}>{(agent) => <AgentPanel initial={agent} />}</Loaded>
      <AgentStorefront agentId={agentId} />
    </section>
  );
}

function AgentStorefront({ agentId }: { agentId: string }) {
  const load = useLoad(() => loadStorefront(agentId), [agentId]);
  return <Loaded load={load}>{(store) => <StorefrontSection agentId={agentId} initial={store} own={false} />}</Loaded>;
}

function AgentPanel({ initial }: { initial: Agent }) {
  const t = useStrings(strings);
  // Read again after each change in place: notices and refusals stay on screen.
  const [agent, setAgent] = useState(initial);
  const [notice, setNotice] = useState('');
  const refresh = () => void loadAgent(agent.agent_id).then(setAgent, () => undefined);

  const [name, setName] = useState(agent.name);
  const [contact, setContact] = useState(agent.contact);
  const [changeError, setChangeError] = useState<unknown>(undefined);
  const [amount, setAmount] = useState('');
  const [topUpError, setTopUpError] = useState<unknown>(undefined);
  const [lowBalance, setLowBalance] = useState('');
  const [lowBalanceError, setLowBalanceError] = useState<unknown>(undefined);
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [priceError, setPriceError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const run = async (body: Record<string, unknown>, setError: (e: unknown) => void, done: string, after?: () => void) => {
    setBusy(true);
    setError(undefined);
    setNotice('');
    try {
      await agentsCall({ agent_id: agent.agent_id, ...body });
      after?.();
      setNotice(done);
      refresh();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const changedPrices = () =>
    agent.prices.filter((p) => prices[priceKey(p)] !== undefined && prices[priceKey(p)] !== '').map((p) => ({ mode: p.mode, warranty: p.warranty, device_type: p.device_type, price: toCents(prices[priceKey(p)]!) }));

  return (
    <>
      <h1 id="agent-name">{agent.name}</h1>
      {notice ? (
        <p class="success" role="status" id="agent-notice">
          {notice}
        </p>
      ) : null}
      <div class="card">
        <dl class="details">
          <dt>{t('agent_id')}</dt>
          <dd class="mono">{agent.agent_id}</dd>
          <dt>{t('level')}</dt>
          <dd>{agent.level}</dd>
          <dt>{t('balance')}</dt>
          <dd id="agent-balance">{formatCents(agent.balance)}</dd>
          <dt>{t('low_balance')}</dt>
          <dd id="agent-low-balance">
            {agent.low_balance > 0 ? formatCents(agent.low_balance) : t('low_balance_off')}
            {agent.balance_low ? (
              <>
                {' '}
                <span class="badge off">{t('balance_low')}</span>
              </>
            ) : null}
          </dd>
          <dt>{t('state')}</dt>
          <dd>
            <span class={`badge ${agent.suspended ? 'off' : 'on'}`} id="agent-state">
              {agent.suspended ? t('suspended') : t('active')}
            </span>
          </dd>
        </dl>
        <div class="actions">
          <button type="button" class={`btn ${agent.suspended ? '' : 'danger'}`} id="agent-suspend" disabled={busy} onClick={() => void run({ suspended: !agent.suspended }, setChangeError, agent.suspended ? t('lifted') : t('suspended_now'))}>
            {agent.suspended ? t('lift') : t('suspend')}
          </button>
        </div>
        <p class="muted">{t('suspend_hint')}</p>
      </div>

      <form
        class="card"
        id="agent-topup"
        aria-labelledby="topup-title"
        onSubmit={(e) => {
          e.preventDefault();
          void run({ amount: toCents(amount) }, setTopUpError, t('topped_up'), () => setAmount(''));
        }}
      >
        <h2 id="topup-title">{t('topup')}</h2>
        <Field label={t('amount')} name="amount" error={topUpError} hint={t('amount_hint')}>
          {(p) => <input {...p} type="text" inputMode="decimal" dir="ltr" required value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />}
        </Field>
        <FormError error={topUpError} fields={['amount']} />
        <button type="submit" class="btn" disabled={busy}>
          {t('topup_button')}
        </button>
      </form>

      <form
        class="card"
        id="agent-low-balance-form"
        aria-labelledby="low-balance-title"
        onSubmit={(e) => {
          e.preventDefault();
          void run({ low_balance: toCents(lowBalance) }, setLowBalanceError, t('low_balance_saved'), () => setLowBalance(''));
        }}
      >
        <h2 id="low-balance-title">{t('low_balance')}</h2>
        <Field label={t('amount')} name="low_balance" error={lowBalanceError} hint={t('low_balance_hint')}>
          {(p) => <input {...p} type="text" inputMode="decimal" dir="ltr" required value={lowBalance} onInput={(e) => setLowBalance(e.currentTarget.value)} />}
        </Field>
        <FormError error={lowBalanceError} fields={['low_balance']} />
        <button type="submit" class="btn" disabled={busy}>
          {t('low_balance_save')}
        </button>
      </form>

      <form
        class="card"
        id="agent-change"
        aria-labelledby="change-title"
        onSubmit={(e) => {
          e.preventDefault();
          void run({ name: name.trim(), contact: contact.trim() }, setChangeError, t('changed'));
        }}
      >
        <h2 id="change-title">{t('change')}</h2>
        <div class="filters">
          <Field label={t('name')} name="name" error={changeError}>
            {(p) => <input {...p} type="text" required maxLength={64} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <Field label={t('contact')} name="contact" error={changeError}>
            {(p) => <input {...p} type="text" maxLength={200} value={contact} onInput={(e) => setContact(e.currentTarget.value)} />}
          </Field>
        </div>
        <FormError error={changeError} fields={['name', 'contact']} />
        <button type="submit" class="btn" disabled={busy}>
          {t('save')}
        </button>
      </form>

      <form
        class="card"
        id="agent-prices"
        aria-labelledby="prices-title"
        onSubmit={(e) => {
          e.preventDefault();
          void run({ prices: changedPrices() }, setPriceError, t('prices_saved'), () => setPrices({}));
        }}
      >
        <h2 id="prices-title">{t('prices')}</h2>
        <p class="muted">{t('prices_hint')}</p>
        {agent.prices.length === 0 ? (
          <p class="muted">{t('no_prices')}</p>
        ) : (
          <div class="table-wrap">
            <table class="cards">
              <thead>
                <tr>
                  <th scope="col">{t('mode')}</th>
                  <th scope="col">{t('warranty')}</th>
                  <th scope="col">{t('device_type')}</th>
                  <th scope="col">{t('cost')}</th>
                  <th scope="col">{t('price')}</th>
                  <th scope="col">{t('new_price')}</th>
                </tr>
              </thead>
              <tbody>
                {agent.prices.map((p) => {
                  const key = priceKey(p);
                  return (
                    <tr key={key} data-price={key}>
                      <td data-label={t('mode')}>{p.mode === 'instant' ? t('mode_instant') : t('mode_review')}</td>
                      <td data-label={t('warranty')}>{p.warranty}</td>
                      <td data-label={t('device_type')}>{p.device_type}</td>
                      <td data-label={t('cost')}>{formatCents(p.cost)}</td>
                      <td data-label={t('price')} class="current-price">
                        {formatCents(p.price)}
                        {p.bands.length > 0 ? (
                          <span class="muted bands" title={t('bands')}>
                            {p.bands.map((b) => (
                              <span key={b.from}>
                                <br />
                                {t('band_from', { from: b.from, price: formatCents(b.price) })}
                              </span>
                            ))}
                          </span>
                        ) : null}
                      </td>
                      <td data-label={t('new_price')}>
                        <input
                          type="text"
                          inputMode="decimal"
                          dir="ltr"
                          name={`price-${key}`}
                          aria-label={t('new_price_for', { mode: p.mode, warranty: p.warranty, device_type: p.device_type })}
                          value={prices[key] ?? ''}
                          onInput={(e) => setPrices({ ...prices, [key]: e.currentTarget.value })}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <FormError error={priceError} fields={[]} />
        <button type="submit" class="btn" disabled={busy || changedPrices().length === 0}>
          {t('prices_save')}
        </button>
      </form>
    </>
  );
}
