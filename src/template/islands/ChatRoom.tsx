import { useRef, useState } from 'react';

interface Message {
  user: string;
  text: string;
  time: string;
}
interface Props {
  channel: string;
  me: string;
  initial: Message[];
  labels: { message: string; send: string; log: string };
}

/** The chat demo's message list and input: sending appends to the channel (demo only, nothing leaves the page). */
export default function ChatRoom({ channel, me, initial, labels }: Props) {
  const [messages, setMessages] = useState(initial);
  const [draft, setDraft] = useState('');
  const end = useRef<HTMLLIElement>(null);

  const send = (e: { preventDefault(): void }) => {
    e.preventDefault();
    const text = draft.trim();
    if (!text) return;
    const time = new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    setMessages((m) => [...m, { user: me, text, time }]);
    setDraft('');
    requestAnimationFrame(() => end.current?.scrollIntoView({ block: 'nearest' }));
  };

  return (
    <div className="flex h-[60vh] min-h-80 flex-col">
      <ul className="flex-1 space-y-2 overflow-y-auto p-4" aria-label={labels.log} aria-live="polite" data-testid="chat-log">
        {messages.map((m, i) => (
          <li key={i} className={`chat ${m.user === me ? 'chat-end' : 'chat-start'}`}>
            <div className="chat-header text-xs">
              {m.user} <time className="text-base-content/80">{m.time}</time>
            </div>
            <div className={`chat-bubble ${m.user === me ? 'chat-bubble-primary' : ''}`}>{m.text}</div>
          </li>
        ))}
        <li ref={end} aria-hidden="true" />
      </ul>
      <form onSubmit={send} className="flex gap-2 border-t border-base-300 p-3">
        <label className="sr-only" htmlFor={`chat-input-${channel}`}>
          {labels.message}
        </label>
        <input
          id={`chat-input-${channel}`}
          className="input flex-1"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={labels.message}
          autoComplete="off"
          data-testid="chat-input"
        />
        <button type="submit" className="btn btn-primary" disabled={!draft.trim()}>
          {labels.send}
        </button>
      </form>
    </div>
  );
}
