//! `/pair`: a wall screen pairs itself with an administrator's one-time code (docs/decisions.md "A
//! board on a wall"): nobody signs in on the wall. The code may come in the link's fragment
//! (`/pair#ABCDEFGH`, opened from the administrator's link) or be typed. Paired, the screen keeps its
//! board token and opens its unit's board; unpaired later, it comes back here and says so.

import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { LanguageSelector } from '../../components/LanguageSelector';
import { messageKeyForError } from '../../lib/messages';
import { boardUnitAtom, SESSION_END_MESSAGE, sessionEndAtom, startSession, tokenAtom } from '../../lib/session';
import { boardSession, pairWithCode } from './screensApi';
import { unitPath } from './unit';

export function PairScreenPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hash } = useLocation();
  const token = useAtomValue(tokenAtom);
  const boardUnit = useAtomValue(boardUnitAtom);
  const sessionEnd = useAtomValue(sessionEndAtom);
  const [code, setCode] = useState(() => decodeURIComponent(hash.replace(/^#/, '')));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (token && boardUnit !== null) return <Navigate to={unitPath(boardUnit)} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || token) return;
    setBusy(true);
    setError(null);
    try {
      const paired = await pairWithCode(code);
      startSession(boardSession(paired));
      navigate(unitPath(paired.unit), { replace: true });
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
      <form className="login-card" onSubmit={submit} noValidate data-testid="pair-screen">
        <div className="login-brand">
          <span className="brand-mark brand-mark-lg" aria-hidden="true" />
          <h1>{t('wardScreens.pairTitle')}</h1>
          <p className="muted">{t('wardScreens.pairHelp')}</p>
        </div>
        {sessionEnd === 'unpaired' && !error ? (
          <div className="form-notice" role="status" data-testid="screen-unpaired">
            {t(SESSION_END_MESSAGE.unpaired)}
          </div>
        ) : null}
        {token ? (
          <div className="form-notice" role="status">
            {t('wardScreens.signedInAsPerson')}
          </div>
        ) : null}
        <label className="field">
          <span>{t('wardScreens.code')}</span>
          <input
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            data-testid="pair-code"
          />
        </label>
        {error ? (
          <div className="form-error" role="alert" data-testid="pair-error">
            {t(error)}
          </div>
        ) : null}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy || !code.trim() || Boolean(token)} data-testid="pair-submit">
          {busy ? t('wardScreens.pairing') : t('wardScreens.pair')}
        </button>
      </form>
    </div>
  );
}
