/**
 * Agents (resellers under this one): `#/agents` the list and a new agent (its token shown once),
 * `#/agents/<agent id>` one agent: change its name and contact, suspend or lift it, top it up from the
 * balance, its prices against what this reseller pays, and its storefront (storefront.tsx); an agent signed in
 * edits its own storefront under the list. All through `POST /api/user/agents`.
 */
import { useState } from 'preact/hooks';
import { Field, FormError } from '../../components/field';
import { Loaded, useLoad } from '../../components/status';
import { LocalPaging } from '../../components/paging';
import { formatCents, useStrings } from '../../i18n';
import { hrefOf } from '../../router';
import type { ScreenProps } from '../registry';
import { agentsCall } from './agents-api';
import { AgentDetail } from './detail';
import { strings } from './strings';
import { loadOwnStorefront, StorefrontSection } from './storefront';

const PAGE = 20;

const loadAgents = () => agentsCall({}).then((d) => d as Extract<typeof d, { items: unknown }>);

export default function Agents({ rest }: ScreenProps) {
  return rest[0] ? <AgentDetail key={rest[0]} agentId={rest[0]} /> : <AgentList />;
}

/** An agent signed in has a storefront of its own (a reseller of the operator has none: nothing shown). */
function OwnStorefront() {
  const load = useLoad(loadOwnStorefront, []);
  return <Loaded load={load}>{(store) => (store ? <StorefrontSection agentId={undefined} initial={store} own /> : null)}</Loaded>;
}

function AgentList() {
  const t = useStrings(strings);
  const list = useLoad(loadAgents, []);
  const [page, setPage] = useState(0);
  const [name, setName] = useState('');
  const [contact, setContact] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ agent_id: string; name: string; token: string } | undefined>(undefined);

  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const agent = (await agentsCall({ name: name.trim(), ...(contact.trim() ? { contact: contact.trim() } : {}) })) as { agent_id: string; name: string; token: string };
      setCreated(agent);
      setName('');
      setContact('');
      list.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <h1>{t('title')}</h1>
      <p class="muted">{t('intro')}</p>
      {created ? (
        <div class="notice" role="status" id="agent-created">
          <p>{t('created', { name: created.name })}</p>
          <p class="secret" id="agent-token">
            {created.token}
          </p>
          <p>
            <a href={hrefOf(['agents', created.agent_id])}>{t('open', { name: created.name })}</a>
          </p>
        </div>
      ) : null}
      <Loaded load={list}>
        {(data) =>
          data.items.length === 0 ? (
            <p class="card muted">{t('none')}</p>
          ) : (
            <>
              <div class="table-wrap">
                <table class="cards" id="agent-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('name')}</th>
                      <th scope="col">{t('contact')}</th>
                      <th scope="col">{t('level')}</th>
                      <th scope="col">{t('balance')}</th>
                      <th scope="col">{t('state')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.slice(page * PAGE, (page + 1) * PAGE).map((a) => (
                      <tr key={a.agent_id} data-agent={a.agent_id}>
                        <td data-label={t('name')}>
                          <a href={hrefOf(['agents', a.agent_id])}>{a.name}</a>
                        </td>
                        <td data-label={t('contact')}>{a.contact || '—'}</td>
                        <td data-label={t('level')}>{a.level}</td>
                        <td data-label={t('balance')}>
                          {formatCents(a.balance)}
                          {a.balance_low ? (
                            <>
                              {' '}
                              <span class="badge off" title={`${t('low_balance')}: ${formatCents(a.low_balance)}`}>
                                {t('balance_low')}
                              </span>
                            </>
                          ) : null}
                        </td>
                        <td data-label={t('state')}>
                          <span class={`badge ${a.suspended ? 'off' : 'on'}`}>{a.suspended ? t('suspended') : t('active')}</span>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <LocalPaging page={page} setPage={setPage} size={PAGE} total={data.items.length} />
            </>
          )
        }
      </Loaded>
      <form class="card" id="create-agent" onSubmit={create} aria-labelledby="create-agent-title">
        <h2 id="create-agent-title">{t('create')}</h2>
        <div class="filters">
          <Field label={t('name')} name="name" error={error}>
            {(p) => <input {...p} type="text" required maxLength={64} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <Field label={t('contact')} name="contact" error={error}>
            {(p) => <input {...p} type="text" maxLength={200} value={contact} onInput={(e) => setContact(e.currentTarget.value)} />}
          </Field>
        </div>
        <FormError error={error} fields={['name', 'contact']} />
        <button type="submit" class="btn" disabled={busy}>
          {t('create_button')}
        </button>
      </form>
      <OwnStorefront />
    </section>
  );
}
