//! The device page's turn section (issue 23): "Patient turned" (RecordTurnButton) and the latest
//! recorded turns — when, to which position, who, and whether it came on time (before the
//! interval was up) — with how many were recorded in the last 24 hours.

import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import { RecordTurnButton } from './RecordTurnButton';
import './turns.css';
import { getTurns, turnsWithin, type TurnEntry, type TurnRecorded } from './turnsApi';

/** How many recorded turns the panel lists. */
export const TURNS_SHOWN = 5;
const DAY_MS = 24 * 3_600_000;

export function TurnsPanel({ deviceId, seated = false, onRecorded }: { deviceId: string; seated?: boolean; onRecorded?: (turn: TurnRecorded) => void }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [turns, setTurns] = useState<TurnEntry[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    getTurns(deviceId)
      .then((list) => {
        setTurns(list);
        setFailed(false);
      })
      .catch(() => setFailed(true));
  }, [deviceId]);
  useEffect(load, [load]);

  // The hub stores a turn through its storage writer a moment after it answers: the list is read
  // now and again shortly after, so the new row appears however busy the writer is.
  const rereads = useRef<number[]>([]);
  useEffect(() => () => rereads.current.forEach((timer) => window.clearTimeout(timer)), []);
  const recorded = (turn: TurnRecorded) => {
    load();
    for (const ms of [1_000, 3_000, 6_000]) rereads.current.push(window.setTimeout(load, ms));
    onRecorded?.(turn);
  };
  const now = Date.now();
  return (
    <section className="card turns-panel" data-testid="turns-panel">
      <div className="panel-heading">
        <h2>{t('turns.title')}</h2>
        <RecordTurnButton deviceId={deviceId} seated={seated} onRecorded={recorded} />
      </div>
      {turns === null ? (
        <p className="muted">{failed ? t('turns.unavailable') : t('pages.loading')}</p>
      ) : (
        <>
          <p className="muted" data-testid="turns-count">
            {t('turns.count', { count: turnsWithin(turns, now, DAY_MS) })}
          </p>
          {turns.length === 0 ? null : (
            <ul className="turn-list">
              {turns.slice(0, TURNS_SHOWN).map((turn) => {
                const onTime = turn.tierBefore === 'ok' || turn.tierBefore === 'dueSoon';
                return (
                  <li key={`${turn.atMs}-${turn.recordedAtMs}`} data-testid="turn-row" data-on-time={onTime}>
                    <span className="turn-time">{fmt.dateTime(turn.atMs)}</span>
                    <span className="turn-position">{turn.position ? t(`turns.positions.${turn.position}`, { defaultValue: turn.position }) : '—'}</span>
                    <span className={`turn-timing ${onTime ? 'on-time' : 'late'}`}>
                      {onTime ? t('turns.onTime') : t('turns.late', { time: fmt.duration(Math.max(0, turn.loadedSeconds - turn.intervalSeconds)) })}
                    </span>
                    {turn.detected ? (
                      <span className="turn-by muted">{t('turns.detected')}</span>
                    ) : turn.by ? (
                      <span className="turn-by muted">{t('turns.by', { who: turn.by })}</span>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
