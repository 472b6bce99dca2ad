//! Wall screens, for the company's administrators on the board (docs/decisions.md "A board on a
//! wall"): "Pair a screen" for the unit shown gives a one-time code (5 minutes) and its link, which
//! the wall screen opens (`/pair`); "Use this browser as the screen" pairs the browser in hand and
//! signs its administrator out. Below, every paired screen of the company with its unit, when it was
//! paired and last seen, and Unpair (its board stops at once).

import { useAtomValue, useStore } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useFormat } from '../../lib/format';
import { showApiError } from '../../lib/messages';
import { isAdminAtom, logout, startSession } from '../../lib/session';
import {
  boardSession,
  createPairingCode,
  formatCode,
  listScreens,
  pairingLink,
  pairWithCode,
  unpairScreen,
  type BoardScreenJson,
  type PairingCodeJson,
} from './screensApi';
import { unitPath } from './unit';
import './wallScreens.css';

export interface WallScreensProps {
  /** The unit shown (its key), or undefined on the whole company's board (no pairing there). */
  unit: string | undefined;
  /** How a unit's key reads ("North · 2"). */
  unitLabel: (key: string) => string;
  /** The panel changed size (opened, a code shown): the tiles below it moved. */
  onResize?: () => void;
}

export function WallScreens(props: WallScreensProps) {
  const admin = useAtomValue(isAdminAtom);
  return admin ? <WallScreensPanel {...props} /> : null;
}

function WallScreensPanel({ unit, unitLabel, onResize }: WallScreensProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const store = useStore();
  const navigate = useNavigate();
  const [screens, setScreens] = useState<BoardScreenJson[] | null>(null);
  const [code, setCode] = useState<PairingCodeJson | null>(null);
  const [busy, setBusy] = useState(false);
  const panelRef = useRef<HTMLDetailsElement>(null);

  // Opening the panel or showing a code moves the board's tiles, whose maps are drawn on a canvas
  // of their own: tell the board.
  useEffect(() => {
    const panel = panelRef.current;
    if (!panel || !onResize) return;
    const observer = new ResizeObserver(() => onResize());
    observer.observe(panel);
    return () => observer.disconnect();
  }, [onResize]);

  const reload = useCallback(() => {
    listScreens().then(setScreens, (err) => showApiError(store, err));
  }, [store]);
  useEffect(reload, [reload]);

  const pair = async () => {
    if (unit === undefined) return;
    setBusy(true);
    try {
      setCode(await createPairingCode(unit));
    } catch (err) {
      showApiError(store, err);
    } finally {
      setBusy(false);
    }
  };

  const pairHere = async () => {
    if (!code) return;
    setBusy(true);
    try {
      const paired = await pairWithCode(code.code);
      // The administrator's own session ends here (revoked at the hub): this browser is now a screen.
      await logout();
      startSession(boardSession(paired));
      navigate(unitPath(paired.unit), { replace: true });
    } catch (err) {
      showApiError(store, err);
      setBusy(false);
    }
  };

  const unpair = async (screen: BoardScreenJson) => {
    if (!window.confirm(t('wardScreens.confirmUnpair', { unit: unitLabel(screen.unit) }))) return;
    try {
      await unpairScreen(screen.id);
      reload();
    } catch (err) {
      showApiError(store, err);
    }
  };

  const link = code ? pairingLink(window.location.origin, code.code) : '';
  return (
    <details ref={panelRef} className="ward-screens" data-testid="wall-screens">
      <summary>{t('wardScreens.title', { count: screens?.length ?? 0 })}</summary>
      <p className="muted">{t('wardScreens.explain')}</p>
      {unit === undefined ? (
        <p className="muted">{t('wardScreens.chooseUnit')}</p>
      ) : (
        <button type="button" className="btn" onClick={pair} disabled={busy} data-testid="pair-screen-start">
          {t('wardScreens.pairUnit', { unit: unitLabel(unit) })}
        </button>
      )}
      {code ? (
        <div className="ward-pairing" role="status" data-testid="pairing-code">
          <div>
            {t('wardScreens.codeFor', { unit: unitLabel(code.unit) })}{' '}
            <strong className="ward-pairing-code" data-testid="pairing-code-value">
              {formatCode(code.code)}
            </strong>
          </div>
          <div className="muted">{t('wardScreens.codeExpires', { time: fmt.time(code.expiresAt * 1000) })}</div>
          <div>
            {t('wardScreens.orOpen')}{' '}
            <a href={link} data-testid="pairing-link">
              {link}
            </a>
          </div>
          <button type="button" className="btn btn-ghost" onClick={pairHere} disabled={busy} data-testid="pair-here">
            {t('wardScreens.useThisBrowser')}
          </button>
        </div>
      ) : null}
      {screens && screens.length > 0 ? (
        <table className="ward-screens-table" data-testid="wall-screens-list">
          <thead>
            <tr>
              <th>{t('wardScreens.unit')}</th>
              <th>{t('wardScreens.paired')}</th>
              <th>{t('wardScreens.lastSeen')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {screens.map((screen) => (
              <tr key={screen.id} data-testid="wall-screen">
                <td>{unitLabel(screen.unit)}</td>
                <td>
                  {fmt.dateTime(screen.pairedAt * 1000)} · {screen.pairedByEmail}
                </td>
                <td>{screen.expired ? t('wardScreens.expired') : fmt.dateTime(screen.lastSeen * 1000)}</td>
                <td>
                  <button type="button" className="btn btn-ghost" onClick={() => void unpair(screen)} data-testid="unpair-screen">
                    {t('wardScreens.unpair')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : screens ? (
        <p className="muted">{t('wardScreens.none')}</p>
      ) : null}
    </details>
  );
}
