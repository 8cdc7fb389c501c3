/**
 * Add a device (`#/devices/add`): a UDID or a capture ticket, mode, tier, device type, pool, an optional code.
 * The price (from `/api/user/balance`, the caller's own prices) is shown before the add is confirmed; the
 * answer's certificate (.p12) and profile can be downloaded at once.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Field, FormError } from '../../components/field';
import { saveBase64 } from '../../components/files';
import { Loaded, useLoad } from '../../components/status';
import { common } from '../../components/strings';
import { formatCents, useStrings } from '../../i18n';
import { hrefOf } from '../../router';
import { strings } from './strings';

const TIERS = ['0', '1', '2', '3', '4', '6'] as const;
const REVIEW_TIERS = ['0', '1', '2', '3'] as const;

interface Choice {
  udid: string;
  capture: string;
  mode: 'instant' | 'review';
  warranty: (typeof TIERS)[number];
  deviceType: 'iphone' | 'ipad';
  type: '0' | '1';
  code: string;
  beizhu: string;
}

type Added = Awaited<ReturnType<typeof add>>;

function add(choice: Choice) {
  return call(
    api.POST('/api/adddevice/v2', {
      body: {
        ...(choice.udid.trim() ? { udid: choice.udid.trim() } : {}),
        ...(choice.capture.trim() ? { capture: choice.capture.trim() } : {}),
        mode: choice.mode,
        warranty: choice.warranty,
        deviceType: choice.deviceType,
        type: choice.type,
        ...(choice.code.trim() ? { code: choice.code.trim() } : {}),
        ...(choice.beizhu.trim() ? { beizhu: choice.beizhu.trim() } : {}),
      },
    }),
  );
}

export function AddDevice() {
  const t = useStrings(strings);
  const c = useStrings(common);
  const balance = useLoad(() => call(api.GET('/api/user/balance')), []);
  const [choice, setChoice] = useState<Choice>({ udid: '', capture: '', mode: 'instant', warranty: '1', deviceType: 'iphone', type: '0', code: '', beizhu: '' });
  const [step, setStep] = useState<'form' | 'confirm' | 'adding'>('form');
  const [error, setError] = useState<unknown>(undefined);
  const [added, setAdded] = useState<Added | undefined>(undefined);

  const set = (name: keyof Choice) => (e: Event) => setChoice({ ...choice, [name]: (e.currentTarget as HTMLInputElement).value });
  const tiers = choice.mode === 'review' ? REVIEW_TIERS : TIERS;

  const confirm = async () => {
    setStep('adding');
    setError(undefined);
    try {
      setAdded(await add(choice));
    } catch (failure) {
      setError(failure);
    } finally {
      setStep('form');
    }
  };

  if (added) {
    return (
      <section>
        <h1>{t('add_title')}</h1>
        <div class="card" id="add-result">
          <p class="success" role="status">
            {t('added_ok', { kid: added.id })}
          </p>
          {added.mobileprovision ? (
            <>
              <div class="actions">
                <button type="button" class="btn" id="download-p12" onClick={() => saveBase64(`${added.id}.p12`, added.p12, 'application/x-pkcs12')}>
                  {t('download_p12')}
                </button>
                <button type="button" class="btn secondary" id="download-profile" onClick={() => saveBase64(`${added.id}.mobileprovision`, added.mobileprovision, 'application/x-apple-aspen-mobileprovision')}>
                  {t('download_profile')}
                </button>
              </div>
              <p class="muted">{t('p12_password')}</p>
            </>
          ) : (
            <p class="notice">{t('pending')}</p>
          )}
          <div class="actions">
            <a class="btn secondary" href={hrefOf(['devices', added.id])}>
              {t('details')}
            </a>
            <button type="button" class="btn secondary" onClick={() => (setAdded(undefined), setChoice({ ...choice, udid: '', capture: '' }))}>
              {t('add_another')}
            </button>
          </div>
        </div>
      </section>
    );
  }

  return (
    <section>
      <p>
        <a href={hrefOf(['devices'])}>{t('back')}</a>
      </p>
      <h1>{t('add_title')}</h1>
      <Loaded load={balance}>
        {(b) => {
          const row = b.prices.find((p) => p.mode === choice.mode && String(p.warranty) === choice.warranty && p.device_type === choice.deviceType);
          const price = choice.type === '1' ? t('price_free') : choice.code.trim() ? t('price_code') : row ? t('price', { price: formatCents(row.price, b.currency) }) : t('price_unknown');
          return (
            <form
              class="card narrow"
              id="add-form"
              onSubmit={(e) => {
                e.preventDefault();
                setError(undefined);
                setStep('confirm');
              }}
            >
              <fieldset disabled={step !== 'form'}>
                <Field label={t('udid')} name="udid" error={error}>
                  {(p) => <input {...p} dir="ltr" spellcheck={false} autoComplete="off" value={choice.udid} onInput={set('udid')} placeholder="00008030-001A2B3C4D5E6F70" />}
                </Field>
                <Field label={t('capture')} name="capture" error={error} hint={t('capture_hint')}>
                  {(p) => <input {...p} dir="ltr" spellcheck={false} autoComplete="off" value={choice.capture} onInput={set('capture')} />}
                </Field>
                <Field label={t('mode')} name="mode" error={error}>
                  {(p) => (
                    <select {...p} value={choice.mode} onChange={(e) => setChoice({ ...choice, mode: e.currentTarget.value as Choice['mode'], warranty: e.currentTarget.value === 'review' && Number(choice.warranty) > 3 ? '3' : choice.warranty })}>
                      <option value="instant">{t('mode_instant')}</option>
                      <option value="review">{t('mode_review')}</option>
                    </select>
                  )}
                </Field>
                <Field label={t('warranty')} name="warranty" error={error}>
                  {(p) => (
                    <select {...p} value={choice.warranty} onChange={set('warranty')}>
                      {tiers.map((w) => (
                        <option key={w} value={w}>
                          {w}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field label={t('device_type')} name="deviceType" error={error}>
                  {(p) => (
                    <select {...p} value={choice.deviceType} onChange={set('deviceType')}>
                      <option value="iphone">iphone</option>
                      <option value="ipad">ipad</option>
                    </select>
                  )}
                </Field>
                <Field label={t('pool')} name="type" error={error}>
                  {(p) => (
                    <select {...p} value={choice.type} onChange={set('type')}>
                      <option value="0">{t('pool_0')}</option>
                      <option value="1">{t('pool_1')}</option>
                    </select>
                  )}
                </Field>
                <Field label={t('code')} name="code" error={error}>
                  {(p) => <input {...p} dir="ltr" autoComplete="off" value={choice.code} onInput={set('code')} />}
                </Field>
                <Field label={t('beizhu')} name="beizhu" error={error}>
                  {(p) => <input {...p} maxLength={200} value={choice.beizhu} onInput={set('beizhu')} />}
                </Field>
              </fieldset>
              <p class="figure price" id="add-price" aria-live="polite">
                {price}
              </p>
              <p class="muted">{t('balance_now', { balance: formatCents(b.balance, b.currency) })}</p>
              <FormError error={error} fields={['udid', 'capture', 'mode', 'warranty', 'deviceType', 'type', 'code', 'beizhu']} />
              {step === 'form' ? (
                <button type="submit" class="btn">
                  {t('review')}
                </button>
              ) : (
                <div class="actions">
                  <button type="button" class="btn" id="confirm-add" disabled={step === 'adding'} onClick={confirm}>
                    {step === 'adding' ? t('adding') : t('confirm')}
                  </button>
                  <button type="button" class="btn secondary" disabled={step === 'adding'} onClick={() => setStep('form')}>
                    {c('cancel')}
                  </button>
                </div>
              )}
            </form>
          );
        }}
      </Loaded>
    </section>
  );
}
