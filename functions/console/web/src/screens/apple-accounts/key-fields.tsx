/** The three parts of an App Store Connect API key, the .p8 pasted or read from its file. */
import { Field } from '../../components/field';
import './apple-accounts.css';
import { useStrings } from '../../i18n';
import { strings } from './strings';

export interface Key {
  issuer_id: string;
  key_id: string;
  private_key: string;
}
export const NO_KEY: Key = { issuer_id: '', key_id: '', private_key: '' };

export function KeyFields({ value, onChange, error }: { value: Key; onChange: (key: Key) => void; error: unknown }) {
  const t = useStrings(strings);
  const readFile = async (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    if (file) onChange({ ...value, private_key: await file.text() });
  };
  return (
    <>
      <div class="filters">
        <Field label={t('issuer_id')} name="issuer_id" error={error} hint={t('issuer_id_hint')}>
          {(p) => <input {...p} type="text" dir="ltr" spellcheck={false} autoComplete="off" required value={value.issuer_id} onInput={(e) => onChange({ ...value, issuer_id: e.currentTarget.value })} />}
        </Field>
        <Field label={t('key_id')} name="key_id" error={error}>
          {(p) => <input {...p} type="text" dir="ltr" spellcheck={false} autoComplete="off" required value={value.key_id} onInput={(e) => onChange({ ...value, key_id: e.currentTarget.value })} />}
        </Field>
      </div>
      <Field label={t('private_key')} name="private_key" error={error} hint={t('private_key_hint')}>
        {(p) => <textarea {...p} rows={6} dir="ltr" spellcheck={false} required value={value.private_key} onInput={(e) => onChange({ ...value, private_key: e.currentTarget.value })} />}
      </Field>
      <Field label={t('p8_file')} name="p8_file">
        {(p) => <input {...p} class="p8-file" type="file" accept=".p8,application/pkcs8,text/plain" onChange={(e) => void readFile(e)} />}
      </Field>
    </>
  );
}
