import { useRef, useState, type KeyboardEvent } from 'react';

type State = 'TODO' | 'INPROGRESS' | 'TESTING' | 'DONE';
interface Card {
  id: number;
  title: string;
  description: string;
  state: State;
}
interface Props {
  states: State[];
  initial: Card[];
  labels: Record<string, string>;
}

/**
 * The kanban demo (spec section 4): cards move between columns by dragging, or from the keyboard
 * with ← / → on a focused card; deleting asks first.
 */
export default function KanbanBoard({ states, initial, labels }: Props) {
  const [cards, setCards] = useState(initial);
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<State | null>(null);
  const [pendingDelete, setPendingDelete] = useState<Card | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [draft, setDraft] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const nextId = useRef(Math.max(0, ...initial.map((c) => c.id)) + 1);
  const L = (k: string) => labels[k] ?? k;
  const stateName = (s: State) => L(`state.${s}`);

  const move = (id: number, state: State) => {
    const card = cards.find((c) => c.id === id);
    if (!card || card.state === state) return;
    setCards((cs) => [...cs.filter((c) => c.id !== id), { ...card, state }]);
    setAnnouncement(L('moved').replace('{{title}}', card.title).replace('{{state}}', stateName(state)));
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-card-id="${id}"]`)?.focus());
  };

  const onKey = (e: KeyboardEvent, card: Card) => {
    const i = states.indexOf(card.state);
    const rtl = getComputedStyle(e.currentTarget).direction === 'rtl';
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
    const back = rtl ? 'ArrowRight' : 'ArrowLeft';
    if (e.key === forward && i < states.length - 1) move(card.id, states[i + 1]!);
    else if (e.key === back && i > 0) move(card.id, states[i - 1]!);
    else if (e.key === 'Delete') askDelete(card);
    else return;
    e.preventDefault();
  };

  const askDelete = (card: Card) => {
    setPendingDelete(card);
    dialog.current?.showModal();
  };
  const confirmDelete = () => {
    if (pendingDelete) {
      setCards((cs) => cs.filter((c) => c.id !== pendingDelete.id));
      setAnnouncement(L('deleted').replace('{{title}}', pendingDelete.title));
    }
    setPendingDelete(null);
    dialog.current?.close();
  };

  const add = (e: { preventDefault(): void }) => {
    e.preventDefault();
    const title = draft.trim();
    if (!title) return;
    setCards((cs) => [...cs, { id: nextId.current++, title, description: '', state: 'TODO' }]);
    setDraft('');
  };

  return (
    <>
      <p className="sr-only" aria-live="polite" data-testid="board-announcement">
        {announcement}
      </p>
      <p className="mb-3 text-sm text-base-content/70">{L('hint')}</p>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4" data-testid="board">
        {states.map((state) => {
          const column = cards.filter((c) => c.state === state);
          return (
            <section
              key={state}
              aria-label={stateName(state)}
              data-state={state}
              data-testid={`column-${state}`}
              className={`flex min-h-48 flex-col rounded-box bg-base-200 p-3 transition-colors ${over === state ? 'ring-2 ring-primary' : ''}`}
              onDragOver={(e) => {
                e.preventDefault();
                setOver(state);
              }}
              onDragLeave={() => setOver((o) => (o === state ? null : o))}
              onDrop={(e) => {
                e.preventDefault();
                const id = Number(e.dataTransfer.getData('text/plain')) || dragged;
                if (id) move(id, state);
                setDragged(null);
                setOver(null);
              }}
            >
              <h2 className="mb-2 flex items-center justify-between font-semibold">
                {stateName(state)} <span className="badge badge-sm">{column.length}</span>
              </h2>
              <ul className="flex flex-1 flex-col gap-2">
                {column.map((card) => (
                  <li
                    key={card.id}
                    tabIndex={0}
                    draggable
                    data-card-id={card.id}
                    data-testid="kanban-card"
                    aria-describedby="board-keys"
                    onDragStart={(e) => {
                      e.dataTransfer.setData('text/plain', String(card.id));
                      e.dataTransfer.effectAllowed = 'move';
                      setDragged(card.id);
                    }}
                    onKeyDown={(e) => onKey(e, card)}
                    className={`card cursor-grab bg-base-100 shadow-sm focus:outline-2 focus:outline-primary ${dragged === card.id ? 'opacity-50' : ''}`}
                  >
                    <div className="card-body gap-1 p-3">
                      <div className="flex items-start gap-2">
                        <h3 className="flex-1 font-medium">{card.title}</h3>
                        <button type="button" className="btn btn-ghost btn-xs" aria-label={`${L('delete')}: ${card.title}`} onClick={() => askDelete(card)}>
                          ✕
                        </button>
                      </div>
                      {card.description && <p className="text-sm text-base-content/70">{card.description}</p>}
                      <span className="badge badge-outline badge-xs">{stateName(card.state)}</span>
                    </div>
                  </li>
                ))}
              </ul>
              {state === 'TODO' && (
                <form onSubmit={add} className="mt-2 flex gap-1">
                  <label className="sr-only" htmlFor="kanban-new">
                    {L('newCard')}
                  </label>
                  <input
                    id="kanban-new"
                    className="input input-sm flex-1"
                    value={draft}
                    onChange={(e) => setDraft(e.target.value)}
                    placeholder={L('newCard')}
                  />
                  <button type="submit" className="btn btn-sm btn-primary" aria-label={L('add')}>
                    +
                  </button>
                </form>
              )}
            </section>
          );
        })}
      </div>
      <p id="board-keys" className="sr-only">
        {L('keys')}
      </p>
      <dialog ref={dialog} className="modal" onClose={() => setPendingDelete(null)} data-testid="delete-dialog">
        <div className="modal-box">
          <h3 className="text-lg font-bold">{L('deleteTitle')}</h3>
          <p className="py-4">{L('confirm')}</p>
          <div className="modal-action">
            <button type="button" className="btn" onClick={() => dialog.current?.close()}>
              {L('cancel')}
            </button>
            <button type="button" className="btn btn-error" onClick={confirmDelete}>
              {L('delete')}
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
