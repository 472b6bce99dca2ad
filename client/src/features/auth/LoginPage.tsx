//! Login screen (spec §2 "Login and admin"): email, password, privacy notice with policy link and a
//! sign-in button; Enter submits. No client-side checks (spec §5).

import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { LanguageSelector } from '../../components/LanguageSelector';
import { login } from '../../lib/api';
import { variantsFrom } from '../../lib/companyVariants';
import { messageKeyForError } from '../../lib/messages';
import { SESSION_END_MESSAGE, sessionEndAtom, startSession, tokenAtom } from '../../lib/session';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useAtomValue(tokenAtom);
  const sessionEnd = useAtomValue(sessionEndAtom);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [policyOpen, setPolicyOpen] = useState(false);

  if (token) return <Navigate to="/devices" replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const res = await login(email, password);
      const role = Number(res.role);
      startSession(
        {
          token: res.token,
          userId: String(res.userId),
          companyId: String(res.companyId ?? ''),
          companyName: res.companyName ?? '',
          role: Number.isInteger(role) && role > 0 ? role : null,
          // The hub just accepted this login: an expiry already past means this clock is off; then
          // only the hub's 401 ends the session.
          expiresAt: Number.isFinite(res.expiresAt) && res.expiresAt * 1000 > Date.now() ? res.expiresAt : null,
        },
        variantsFrom(res.variants),
      );
      navigate('/devices', { replace: true });
    } catch (err) {
      setError(messageKeyForError(err));
      setBusy(false);
    }
  };

  return (
    <div className="login-screen">
      <div className="login-language">
        <LanguageSelector />
      </div>
      <form className="login-card" onSubmit={submit} noValidate>
        <div className="login-brand">
          <span className="brand-mark brand-mark-lg" aria-hidden="true" />
          <h1>{t('app.title')}</h1>
          <p className="muted">{t('login.subtitle')}</p>
        </div>
        {sessionEnd && !error ? (
          <div className="form-notice" role="status" data-testid="session-ended">
            {t(SESSION_END_MESSAGE[sessionEnd])}
          </div>
        ) : null}
        <label className="field">
          <span>{t('login.email')}</span>
          <input
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
          />
        </label>
        <label className="field">
          <span>{t('login.password')}</span>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        {error ? (
          <div className="form-error" role="alert" data-testid="login-error">
            {t(error)}
          </div>
        ) : null}
        <p className="privacy-notice">
          {t('login.privacyNotice')}{' '}
          <a
            href="#privacy-policy"
            aria-expanded={policyOpen}
            onClick={(e) => {
              e.preventDefault();
              setPolicyOpen((o) => !o);
            }}
          >
            {t('login.privacyLink')}
          </a>
        </p>
        {policyOpen ? (
          <div id="privacy-policy" className="privacy-policy" role="note">
            <h2>{t('login.privacyTitle')}</h2>
            <p>{t('login.privacyText')}</p>
          </div>
        ) : null}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? t('login.signingIn') : t('login.signIn')}
        </button>
      </form>
    </div>
  );
}
