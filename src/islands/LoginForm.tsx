import { useState, type SubmitEvent } from 'react';
import { safeNext } from '../lib/routes';
import { setSignedIn } from '../state/auth';
import { EMAIL_MAX, PASSWORD_MAX } from '../lib/contract/limits';
import { api } from '../lib/api/client';
import { authPaths } from '../lib/contract/paths';

interface Props {
  /** Where to go once signed in (already made safe by the server). */
  next: string;
  /** What the server-rendered form had, when it came back from a no-JavaScript post. */
  initialEmail: string;
  initialError: string | null;
  fieldErrors: Record<string, string>;
  demo: { email: string; password: string } | null;
  /** The sign-in providers configured (「LINEでログイン」…): plain links that start the sign-in there. */
  providers: { href: string; label: string; line: boolean }[];
  labels: Record<
    'email' | 'password' | 'submit' | 'sending' | 'forgot' | 'noAccount' | 'create' | 'or' | 'demoLabel' | 'demo' | 'required' | 'network',
    string
  >;
}

/**
 * Sign-in (spec section 7): POST /api/login; on success the browser remembers only the user id
 * (`tokenBr`), the session itself being an HttpOnly cookie. Also posts as a plain form without JS.
 */
export default function LoginForm({ next, initialEmail, initialError, fieldErrors, demo, providers, labels }: Props) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(initialError);
  const [fields, setFields] = useState<Record<string, string>>(fieldErrors);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    setFields({});
    try {
      const { data, error: refused } = await api.POST('/api/login', { body: { email, password } });
      if (data) {
        setSignedIn(data.user_id, data.tenant, data.store_id);
        // Checked again here: the prop came from the server, but this is where the browser leaves.
        window.location.assign(safeNext(next));
        return;
      }
      // An answer that is not the API's envelope (a proxy's error page) reads as a network failure.
      const answer = typeof refused === 'object' ? refused?.error : undefined;
      setFields(answer?.fields ?? {});
      setError(answer?.fields ? null : (answer?.message ?? labels.network));
    } catch {
      setError(labels.network);
    }
    setBusy(false);
  }

  const describe = (name: string) => (fields[name] ? `login-${name}-error` : undefined);

  return (
    <form method="post" action={authPaths.signinFor(next)} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {error && (
        <div role="alert" className="alert alert-error alert-soft text-sm" data-testid="login-error">
          {error}
        </div>
      )}
      <div>
        <label htmlFor="login-email" className="mb-1 block text-sm font-medium">
          {labels.email}
        </label>
        <input
          id="login-email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="username"
          required
          maxLength={EMAIL_MAX}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={fields.email ? true : undefined}
          aria-describedby={describe('email')}
          className={`input input-bordered w-full ${fields.email ? 'input-error' : ''}`}
        />
        {fields.email && (
          <p id="login-email-error" className="mt-1 text-sm text-error">
            {fields.email}
          </p>
        )}
      </div>
      <div>
        <div className="mb-1 flex items-baseline justify-between gap-2">
          <label htmlFor="login-password" className="block text-sm font-medium">
            {labels.password}
          </label>
          <a href="/auth/forgot-password" className="link link-primary inline-flex min-h-11 items-center text-sm">
            {labels.forgot}
          </a>
        </div>
        <input
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={PASSWORD_MAX}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={fields.password ? true : undefined}
          aria-describedby={describe('password')}
          className={`input input-bordered w-full ${fields.password ? 'input-error' : ''}`}
        />
        {fields.password && (
          <p id="login-password-error" className="mt-1 text-sm text-error">
            {fields.password}
          </p>
        )}
      </div>
      <button type="submit" className="btn btn-primary w-full" disabled={busy} aria-busy={busy}>
        {busy ? labels.sending : labels.submit}
      </button>
      {/* The spec's 'Or sign in with' heads the other ways in: the providers configured, then the demo. */}
      {(providers.length > 0 || demo) && <div className="divider text-xs text-base-content/70">{labels.or}</div>}
      {providers.length > 0 && (
        <>
          {/* LINE's green, darkened so that white text on it stays readable (WCAG AA). */}
          {providers.map((p) => (
            <a key={p.href} href={p.href} className={`btn w-full ${p.line ? 'border-0 bg-[#06773a] text-white hover:bg-[#055f2e]' : 'btn-outline'}`}>
              {p.label}
            </a>
          ))}
        </>
      )}
      {demo && (
        <>
          <p className="mt-2 text-center text-xs text-base-content/70">{labels.demoLabel}</p>
          {/* The demo account is public (README); this only fills the form, the user still signs in. A
              quiet button, named as a demo, so that it is not taken for signing in with another service. */}
          <button
            type="button"
            className="btn btn-ghost w-full"
            onClick={() => {
              setEmail(demo.email);
              setPassword(demo.password);
            }}
          >
            {labels.demo}
          </button>
        </>
      )}
      <p className="text-center text-sm">
        {labels.noAccount}{' '}
        <a href={`/auth/signup${next !== '/home' ? `?next=${encodeURIComponent(next)}` : ''}`} className="link link-primary">
          {labels.create}
        </a>
      </p>
    </form>
  );
}
