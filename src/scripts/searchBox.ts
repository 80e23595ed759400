/**
 * What scripts add to the search form (src/components/SearchBox.astro), which works without them:
 * - the search session (spec section 2): a search or an area page keeps its keyword, area name,
 *   URL and page; back on the home listing without a search, the kept one is offered again;
 * - ctrl + / focuses the keyword;
 * - a clean URL: empty fields are left out, the keyword is trimmed, and a home search with nothing
 *   but the party stays on /home.
 */
import { $searchSession } from '../stores/searchSession';

const form = document.querySelector<HTMLFormElement>('form[data-search]');
const keyword = form?.querySelector<HTMLInputElement>('input[name="name"]');

/** The query of the kept search (a listing URL); anything else kept there is ignored. */
function keptParams(searchData: string | undefined): URLSearchParams | null {
  if (!searchData?.startsWith('/')) return null;
  try {
    return new URL(searchData, location.origin).searchParams;
  } catch {
    return null;
  }
}

/** Chooses the kept value in a select left at its default, if the select offers it. */
function offer(select: HTMLSelectElement | null | undefined, value: string | null | undefined): void {
  if (!select || select.value || !value || ![...select.options].some((o) => o.value === value)) return;
  select.value = value;
}

if (form && keyword) {
  if (form.dataset.search === 'home') {
    const s = $searchSession.get();
    if (s.keyword && !keyword.value) keyword.value = s.keyword;
    const kept = keptParams(s.searchData);
    offer(form.querySelector<HTMLSelectElement>('select[name="area"]'), kept?.get('area'));
    offer(form.querySelector<HTMLSelectElement>('select[name="genre"]'), kept?.get('genre'));
  } else {
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
