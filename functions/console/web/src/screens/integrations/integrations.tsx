/** Integrations: `#/integrations` the webhook and its deliveries, `#/integrations/events` the event stream, `#/integrations/captures` UDID captures. */
import { useStrings } from '../../i18n';
import { hrefOf } from '../../router';
import type { ScreenProps } from '../registry';
import { Captures } from './captures';
import { Events } from './events';
import { strings } from './strings';
import { Webhook } from './webhook';

const TABS = [
  ['webhook', 'tab_webhook'],
  ['events', 'tab_events'],
  ['captures', 'tab_captures'],
] as const;

export default function Integrations({ rest }: ScreenProps) {
  const t = useStrings(strings);
  const current = TABS.find(([id]) => id === rest[0])?.[0] ?? 'webhook';
  return (
    <section>
      <h1>{t('title')}</h1>
      <nav class="actions" aria-label={t('sections')}>
        {TABS.map(([id, label]) => (
          <a key={id} class={`btn small ${id === current ? '' : 'secondary'}`} href={hrefOf(['integrations', ...(id === 'webhook' ? [] : [id])])} aria-current={id === current ? 'page' : undefined}>
            {t(label)}
          </a>
        ))}
      </nav>
      {current === 'webhook' ? <Webhook /> : null}
      {current === 'events' ? <Events /> : null}
      {current === 'captures' ? <Captures /> : null}
    </section>
  );
}
