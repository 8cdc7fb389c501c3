/** What publishing answered: the published app, or the refusal as the API words it with the IPA's mismatches field by field. */
import { ApiError } from '../../api/client';
import { FormError } from '../../components/field';
import { useStrings } from '../../i18n';
import { strings } from './strings';

interface Mismatch {
  field: string;
  app: unknown;
  ipa: unknown;
}

function mismatchesOf(error: unknown): Mismatch[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.data.mismatches)) return [];
  return (error.data.mismatches as unknown[]).filter((m): m is Mismatch => typeof m === 'object' && m !== null && typeof (m as Mismatch).field === 'string');
}

export function PublishRefusal({ error, appName }: { error: unknown; appName: string }) {
  const t = useStrings(strings);
  const mismatches = mismatchesOf(error);
  return (
    <div class="error-box" id="publish-refusal" role="alert">
      <h3>{t('publish_refused', { name: appName })}</h3>
      <FormError error={error} fields={[]} />
      {error instanceof ApiError && error.error ? <p class="muted mono">{error.error}</p> : null}
      {mismatches.length ? (
        <table id="ipa-mismatches">
          <caption class="visually-hidden">{t('mismatch_caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('mismatch_field')}</th>
              <th scope="col">{t('mismatch_app')}</th>
              <th scope="col">{t('mismatch_ipa')}</th>
            </tr>
          </thead>
          <tbody>
            {mismatches.map((m) => (
              <tr key={m.field} data-field={m.field}>
                <th scope="row" class="mono">
                  {m.field}
                </th>
                <td class="mono">{String(m.app ?? '')}</td>
                <td class="mono">{String(m.ipa ?? '')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : error instanceof ApiError && error.fields.length ? (
        <p>
          {t('fields_named')} <span class="mono">{error.fields.join(', ')}</span>
        </p>
      ) : null}
    </div>
  );
}
