import { useEffect, useState, type SubmitEvent } from 'react';
import { api } from '../lib/api/client';

interface Props {
  minLength: number;
  maxLength: number;
  labels: Record<'verifying' | 'invalid' | 'requestAgain' | 'password' | 'hint' | 'submit' | 'sending' | 'network', string>;
}

type State = 'verifying' | 'form' | 'invalid';

/**
 * The e-mailed link's screen: verifying link → new-password form, or 'The action link is invalid'.
 * The token is taken out of the address bar at once so it does not linger in history or get shared.
 */
export default function ResetPasswordForm({ minLength, maxLength, labels }: Props) {
  const [state, setState] = useState<State>('verifying');
  const [token, setToken] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const url = new URL(window.location.href);
    const found = url.searchParams.get('token') ?? '';
    if (found) {
      url.searchParams.delete('token');
      window.history.replaceState(null, '', url.pathname + url.search);
    }
    setToken(found);
    if (!found) return setState('invalid');
    api
      .POST('/api/password/verify', { body: { token: found } })
      .then(({ response }) => setState(response.status === 204 ? 'form' : 'invalid'))
      .catch(() => setState('invalid'));
  }, []);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const { response, error: refused } = await api.POST('/api/password/reset', { body: { token, password } });
      if (response.status === 204) {
        window.location.assign('/auth/signin?reset=done');
        return;
      }
      const answer = typeof refused === 'object' ? refused?.error : undefined;
      if (answer?.code === 'invalid_link') setState('invalid');
      else setError(answer?.fields?.password ?? answer?.message ?? labels.network);
    } catch {
      setError(labels.network);
    }
    setBusy(false);
  }

  if (state === 'verifying') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm" data-state="verifying">
        <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        {labels.verifying}
      </p>
    );
  }
  if (state === 'invalid') {
    return (
      <div className="flex flex-col gap-4" data-state="invalid">
        <div role="alert" className="alert alert-error alert-soft text-sm">
          {labels.invalid}
        </div>
        <a href="/auth/forgot-password" className="btn btn-outline w-full">
          {labels.requestAgain}
        </a>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-state="form">
      <div>
        <label htmlFor="reset-password" className="mb-1 block text-sm font-medium">
          {labels.password}
        </label>
        <input
          id="reset-password"
          name="password"
          type="password"
          autoComplete="new-password"
          autoFocus
          required
          minLength={minLength}
          maxLength={maxLength}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'reset-password-hint reset-password-error' : 'reset-password-hint'}
          className={`input input-bordered w-full ${error ? 'input-error' : ''}`}
        />
        <p id="reset-password-hint" className="mt-1 text-xs text-base-content/70">
          {labels.hint}
        </p>
        {error && (
          <p id="reset-password-error" role="alert" className="mt-1 text-sm text-error">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="btn btn-primary w-full" disabled={busy} aria-busy={busy}>
        {busy ? labels.sending : labels.submit}
      </button>
    </form>
  );
}
