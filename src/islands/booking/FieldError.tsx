/** A field's error message and the aria attributes that tie the field to it. */
import type { BookingForm } from './useBookingForm';

/** A field's error under it, announced when it appears. */
export function FieldError({ form, name, fieldId }: { form: BookingForm; name: string; fieldId: (name: string) => string }) {
  const message = form.errors[name];
  if (!message) return null;
  return (
    <p id={fieldId(`${name}-error`)} className="mt-1 text-sm text-error" role="alert">
      {message}
    </p>
  );
}

/** aria attributes tying a field to its error. */
export const describedBy = (form: BookingForm, name: string, fieldId: (name: string) => string) =>
  form.errors[name] ? { 'aria-invalid': true, 'aria-describedby': fieldId(`${name}-error`) } : {};

/** What a link asked for in this field and could not have (`party=99`), said beside what is shown instead. */
export function FieldNote({ form, name, fieldId }: { form: BookingForm; name: 'date' | 'party_size' | 'start'; fieldId: (name: string) => string }) {
  const message = form.notes[name];
  if (!message) return null;
  return (
    <p id={fieldId(`${name}-note`)} className="alert alert-warning mt-1 p-2 text-sm" role="status" data-testid={`link-note-${name}`}>
      {message}
    </p>
  );
}
