/** A guest's contact details: name, kana, phone (full-width digits welcome), e-mail; kept on this device if asked. */
import { isKana, normaliseKana } from '../../lib/validation';
import type { BookingForm } from './useBookingForm';
import { describedBy, FieldError } from './FieldError';

const FIELDS = [
  ['name', 'booking.guest.name', 'text', 'name'],
  ['name_kana', 'booking.guest.nameKana', 'text', 'off'],
  ['phone', 'booking.guest.phone', 'tel', 'tel'],
  ['email', 'booking.guest.email', 'email', 'email'],
] as const;

export default function GuestFields({ form, fieldId }: { form: BookingForm; fieldId: (name: string) => string }) {
  const { t, values, set, errors, remember, setRemember } = form;
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1 font-bold">{t('booking.guest.contact')}</legend>
      {FIELDS.map(([name, label, type, auto]) => (
        <div key={name} className="form-control block">
          <label htmlFor={fieldId(name)} className="label-text mb-1 block font-medium">
            {t(label)}
          </label>
          <input
            id={fieldId(name)}
            name={name}
            type={type}
            autoComplete={auto}
            inputMode={type === 'tel' ? 'tel' : undefined}
            placeholder={name === 'phone' ? t('booking.guest.phoneHint') : undefined}
            className={`input input-bordered w-full ${errors[name] ? 'input-error' : ''}`}
            value={values.contact[name]}
            onChange={(e) => set('contact', { ...values.contact, [name]: e.target.value })}
            // Kana typed in hiragana or half width turns into the katakana that is stored (as the
            // contract's kanaField reads it), once the diner leaves the field: never mid-IME.
            onBlur={
              name === 'name_kana' && isKana(values.contact.name_kana)
                ? () => set('contact', { ...values.contact, name_kana: normaliseKana(values.contact.name_kana) })
                : undefined
            }
            {...describedBy(form, name, fieldId)}
          />
          <FieldError form={form} name={name} fieldId={fieldId} />
        </div>
      ))}
      <label className="flex min-h-11 cursor-pointer items-center gap-3">
        <input type="checkbox" name="remember" className="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        <span>{t('booking.guest.remember')}</span>
      </label>
    </fieldset>
  );
}
