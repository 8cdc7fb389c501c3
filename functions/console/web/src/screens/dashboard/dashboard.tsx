/** Dashboard: the balance and the prices the caller pays (more figures join as their routes exist). */
import { api, call } from '../../api/client';
import { Loaded, useLoad } from '../../components/status';
import { formatCents, useStrings } from '../../i18n';
import type { ScreenProps } from '../registry';
import { strings } from './strings';

export default function Dashboard(_props: ScreenProps) {
  const t = useStrings(strings);
  const balance = useLoad(() => call(api.GET('/api/user/balance')), []);
  return (
    <section>
      <h1>{t('title')}</h1>
      <div class="tiles">
        <Loaded load={balance}>
          {(data) => (
            <div class="tile" id="balance">
              <h2>{t('balance')}</h2>
              <p class="figure">{formatCents(data.balance, data.currency)}</p>
            </div>
          )}
        </Loaded>
      </div>
    </section>
  );
}
