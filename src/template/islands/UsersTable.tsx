import { useMemo, useState } from 'react';

export interface UserRow {
  id: number;
  name: string;
  email: string;
  role: string;
  status: string;
  joined: string;
}
type Column = Exclude<keyof UserRow, 'id'>;
interface Props {
  rows: UserRow[];
  columns: Column[];
  perPage?: number;
  editHref?: string;
  labels: Record<string, string>;
}

/** A data table (search, sort, paging) with the spec's empty texts: 'No data available' and 'No matching records found'. */
export default function UsersTable({ rows, columns, perPage = 5, editHref, labels }: Props) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ by: Column; dir: 1 | -1 }>({ by: columns[0]!, dir: 1 });
  const [page, setPage] = useState(0);
  const L = (k: string) => labels[k] ?? k;

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const hit = q ? rows.filter((r) => columns.some((c) => String(r[c]).toLowerCase().includes(q))) : rows;
    return hit.toSorted((a, b) => String(a[sort.by]).localeCompare(String(b[sort.by])) * sort.dir);
  }, [rows, columns, query, sort]);
  const pages = Math.max(1, Math.ceil(shown.length / perPage));
  const current = Math.min(page, pages - 1);
  const slice = shown.slice(current * perPage, current * perPage + perPage);

  const sortBy = (c: Column) => setSort((s) => ({ by: c, dir: s.by === c ? (-s.dir as 1 | -1) : 1 }));

  return (
    <div className="rounded-box bg-base-200 p-3">
      <label className="input input-sm mb-3 w-full max-w-xs">
        <span className="sr-only">{L('search')}</span>
        <input
          type="search"
          value={query}
          placeholder={L('search')}
          onChange={(e) => {
            setQuery(e.target.value);
            setPage(0);
          }}
          data-testid="table-search"
        />
      </label>
      <div className="overflow-x-auto">
        <table className="table" data-testid="users-table">
          <thead className="text-base-content/80">
            <tr>
              {columns.map((c) => (
                <th key={c} aria-sort={sort.by === c ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="inline-flex items-center gap-1" onClick={() => sortBy(c)}>
                    {L(`col.${c}`)}
                    <span aria-hidden="true">{sort.by === c ? (sort.dir === 1 ? '▲' : '▼') : '↕'}</span>
                  </button>
                </th>
              ))}
              {editHref && <th className="sr-only">{L('actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {slice.length === 0 ? (
              <tr>
                <td colSpan={columns.length + (editHref ? 1 : 0)} className="py-8 text-center text-base-content/80" data-testid="table-empty">
                  {rows.length === 0 ? L('noData') : L('noMatch')}
                </td>
              </tr>
            ) : (
              slice.map((r) => (
                <tr key={r.id}>
                  {columns.map((c) => (
                    <td key={c}>{c === 'role' || c === 'status' ? <span className="badge badge-sm badge-ghost">{L(`${c}.${r[c]}`)}</span> : r[c]}</td>
                  ))}
                  {editHref && (
                    <td>
                      <a className="btn btn-ghost btn-xs" href={`${editHref}?id=${r.id}`}>
                        {L('edit')}
                      </a>
                    </td>
                  )}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
        <span data-testid="table-range">
          {shown.length === 0 ? '0' : `${current * perPage + 1}–${current * perPage + slice.length}`} / {shown.length}
        </span>
        <div className="join">
          <button type="button" className="btn join-item btn-sm" disabled={current === 0} onClick={() => setPage(current - 1)} aria-label={L('previous')}>
            ‹
          </button>
          <span className="btn join-item btn-sm pointer-events-none" aria-current="page">
            {current + 1} / {pages}
          </span>
          <button type="button" className="btn join-item btn-sm" disabled={current >= pages - 1} onClick={() => setPage(current + 1)} aria-label={L('next')}>
            ›
          </button>
        </div>
      </div>
    </div>
  );
}
