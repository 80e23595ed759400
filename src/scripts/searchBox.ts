/**
 * What scripts add to the search form (src/components/SearchBox.astro), which works without them:
 * - the search session (spec section 2): a search or an area page keeps its keyword, area name,
 *   URL and page. The form itself always shows the search of its URL, the one the list below
 *   answers: a kept search never fills it, and coming back to a page (back, forward) puts the
 *   URL's values back over whatever the browser restored;
 * - a changed choice (a select, a tag) applies at once; the keyword on submit (Enter, the button);
 * - ctrl + / focuses the keyword;
 * - a clean URL: empty fields are left out, the keyword is trimmed, and a home search with nothing
 *   but the party stays on /home.
 */
import { $searchSession } from '../state/searchSession';

const form = document.querySelector<HTMLFormElement>('form[data-search]');
const keyword = form?.querySelector<HTMLInputElement>('input[name="name"]');

if (form && keyword) {
  // The values the server drew are the URL's: restored form state (back, forward, bfcache) is put back to them.
  form.setAttribute('autocomplete', 'off');
  window.addEventListener('pageshow', () => form.reset());
  form.addEventListener('change', (e) => {
    const target = e.target as HTMLElement;
    if (target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type === 'checkbox')) form.requestSubmit();
  });
  if (form.dataset.search !== 'home') {
    $searchSession.set({
      keyword: keyword.defaultValue || undefined,
      areaName: form.dataset.areaName,
      searchData: location.pathname + location.search,
      page: form.dataset.page,
    });
  }

  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey && e.key === '/') {
      e.preventDefault();
      keyword.focus();
      keyword.select();
    }
  });

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form)) {
      const v = String(value).trim();
      if (v && !form.querySelector(`[name="${key}"][data-in-path]`)) params.append(key, v);
    }
    const onlyParty = [...params.keys()].every((k) => k === 'party');
    window.location.href = `${form.dataset.search === 'home' && onlyParty ? '/home' : form.getAttribute('action')}?${params}`;
  });
}
