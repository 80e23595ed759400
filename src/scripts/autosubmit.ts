/**
 * Forms marked `data-autosubmit` (the language picker, the store page's day and party) send
 * themselves when a field changes; their `[data-submit]` button is for when scripts are off. One
 * module for every such form, so each form is sent once per change. A form that listens is marked
 * `data-autosubmit="on"`.
 */
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-autosubmit]')) {
  form.querySelector('[data-submit]')?.classList.add('sr-only');
  form.addEventListener('change', () => form.requestSubmit());
  form.dataset.autosubmit = 'on';
}
