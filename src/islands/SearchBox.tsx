import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { $searchSession } from '../stores/searchSession';

export interface SearchValues {
  name: string;
  area: string;
  genre: string;
  party: number;
  page: number;
}

interface Props {
  /** home: the unfiltered listing; stores: a search; area: one area's listing (area fixed). */
  mode: 'home' | 'stores' | 'area';
  action: string;
  values: SearchValues;
  areas: { id: number; name: string }[];
  genres: { key: string; label: string }[];
  /** The area of an area page, kept in the search session. */
  areaName?: string;
  /** The party sizes offered, 1 upwards, each labelled in the diner's language (plural forms included). */
  partyOptions: string[];
  keywordMax: number;
  labels: Record<'legend' | 'keyword' | 'placeholder' | 'area' | 'anyArea' | 'genre' | 'anyGenre' | 'party' | 'submit' | 'shortcut', string>;
}

/** The query of the kept search (a listing URL); anything else kept there is ignored. */
function keptParams(searchData: string | undefined): URLSearchParams | null {
  if (!searchData?.startsWith('/')) return null;
  try {
    return new URL(searchData, location.origin).searchParams;
  } catch {
    return null;
  }
}

/**
 * The search form. Works as a plain GET form without JavaScript; with it, keeps the search
 * session (spec section 2: page, search data, area name, keyword) and focuses on ctrl + / .
 */
export default function SearchBox({ mode, action, values, areas, genres, areaName, partyOptions, keywordMax, labels }: Props) {
  const [name, setName] = useState(values.name);
  const [area, setArea] = useState(values.area);
  const [genre, setGenre] = useState(values.genre);
  const [party, setParty] = useState(values.party);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (mode === 'home') {
      // Back on the listing without a search: offer the kept one again.
      const s = $searchSession.get();
      if (s.keyword && !values.name) setName(s.keyword);
      const kept = keptParams(s.searchData);
      if (!values.area && kept?.get('area')) setArea(kept.get('area')!);
      if (!values.genre && kept?.get('genre')) setGenre(kept.get('genre')!);
    } else {
      $searchSession.set({
        keyword: values.name || undefined,
        areaName: areaName ?? areas.find((a) => String(a.id) === values.area)?.name,
        searchData: location.pathname + location.search,
        page: String(values.page),
      });
    }
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey && e.key === '/') {
        e.preventDefault();
        input.current?.focus();
        input.current?.select();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  function submit(e: SyntheticEvent<HTMLFormElement>) {
    e.preventDefault();
    const params = new URLSearchParams();
    if (name.trim()) params.set('name', name.trim());
    if (mode !== 'area' && area) params.set('area', area);
    if (genre) params.set('genre', genre);
    params.set('party', String(party));
    const target = mode === 'home' && !name.trim() && !area && !genre ? '/home' : action;
    window.location.href = `${target}?${params}`;
  }

  return (
    <form role="search" action={action} method="get" onSubmit={submit} className="rounded-box bg-base-200 p-3" aria-label={labels.legend}>
      <div className="flex gap-2">
        <label className="input input-bordered flex w-full items-center gap-2">
          <span className="sr-only">{labels.keyword}</span>
          <input
            ref={input}
            type="search"
            name="name"
            value={name}
            maxLength={keywordMax}
            onChange={(e) => setName(e.target.value)}
            placeholder={labels.placeholder}
            aria-keyshortcuts="Control+/"
            className="grow"
            enterKeyHint="search"
          />
          <kbd className="kbd kbd-sm hidden sm:inline-flex" title={labels.shortcut}>
            Ctrl /
          </kbd>
        </label>
        {/* A magnifier, not a word: on a phone the keyword's hint needs the width (10 languages). */}
        <button type="submit" className="btn btn-primary btn-square" aria-label={labels.submit} title={labels.submit}>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 fill-current">
            <path d="M10 2a8 8 0 0 1 6.3 12.9l5.4 5.4-1.4 1.4-5.4-5.4A8 8 0 1 1 10 2zm0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12z" />
          </svg>
        </button>
      </div>
      <div className="mt-2 grid grid-cols-3 gap-2">
        {mode === 'area' ? (
          <input type="hidden" name="area" value={values.area} />
        ) : (
          <label className="form-control">
            <span className="label-text text-xs">{labels.area}</span>
            <select name="area" value={area} onChange={(e) => setArea(e.target.value)} className="select select-bordered select-sm w-full">
              <option value="">{labels.anyArea}</option>
              {areas.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="form-control">
          <span className="label-text text-xs">{labels.genre}</span>
          <select name="genre" value={genre} onChange={(e) => setGenre(e.target.value)} className="select select-bordered select-sm w-full">
            <option value="">{labels.anyGenre}</option>
            {genres.map((g) => (
              <option key={g.key} value={g.key}>
                {g.label}
              </option>
            ))}
          </select>
        </label>
        <label className="form-control">
          <span className="label-text text-xs">{labels.party}</span>
          <select name="party" value={party} onChange={(e) => setParty(Number(e.target.value))} className="select select-bordered select-sm w-full">
            {partyOptions.map((label, i) => (
              <option key={label} value={i + 1}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
    </form>
  );
}
