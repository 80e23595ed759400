/**
 * Makes a deadline tick: every `[data-countdown]` element (a `<time datetime>` the page already
 * shows as a clock time, so the page reads fine without this) gets a live 「残り m:ss」 beside it,
 * written from the element's `data-remaining` template ({{time}} stands for the minutes and
 * seconds left), counted from the server's now (`data-now`). At the deadline the page is reloaded once, so it shows where the offer stands.
 */
export function startCountdowns(root: ParentNode = document): void {
  const items = [...root.querySelectorAll<HTMLElement>('[data-countdown]')].flatMap((el) => {
    const deadline = Date.parse(el.getAttribute('datetime') ?? '');
    const template = el.dataset.remaining;
    if (!Number.isFinite(deadline) || !template) return [];
    // The server's clock may differ from the device's (a wrong phone clock, a controlled test
    // clock): count from the server's "now" as the page was written (`data-now`), moved on by the
    // device's elapsed time.
    const offset = (Date.parse(el.dataset.now ?? '') || Date.now()) - Date.now();
    const out = document.createElement('span');
    out.dataset.testid = 'countdown';
    out.className = 'ms-2 tabular-nums font-semibold';
    el.after(out);
    return [{ deadline, template, out, offset }];
  });
  if (!items.length) return;
  let reloaded = false;
  const tick = () => {
    // A part of the page drawn again (the queue page's live part) brings its own countdown.
    for (let i = items.length - 1; i >= 0; i--) if (!items[i]!.out.isConnected) items.splice(i, 1);
    if (!items.length) return clearInterval(timer);
    for (const { deadline, template, out, offset } of items) {
      const left = Math.max(0, Math.ceil((deadline - Date.now() - offset) / 1000));
      const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
      out.textContent = template.replace('{{time}}', text);
      if (left === 0 && !reloaded) {
        reloaded = true;
        setTimeout(() => location.reload(), 1000);
      }
    }
  };
  const timer = setInterval(tick, 1000);
  tick();
}
