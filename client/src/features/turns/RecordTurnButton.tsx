//! "Patient turned": a nurse records that the patient was turned, when (now, or up to an hour
//! ago) and to which position; who is the signed-in user. On a seat it is "Position changed"
//! (a seated patient is repositioned or relieved, not turned), Seated offered first. The hub restarts the repositioning
//! clock from that time, logs the turn and attends an Ulcer Risk alarm with it. Used on the
//! device page and on the ward board's tiles.

import { useStore } from 'jotai';
import { useState, type FormEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { notify } from '../../lib/notifications';
import './turns.css';
import { recordTurn, TURN_POSITIONS, type TurnPosition, type TurnRecorded } from './turnsApi';

/** How long ago the turn was, minutes, as the form offers it. */
export const TURN_AGO_MINUTES = [0, 5, 10, 15, 20, 30, 45, 60] as const;

export function RecordTurnButton({
  deviceId,
  seated = false,
  compact = false,
  onRecorded,
}: {
  deviceId: string;
  /** A seat: the position offered first is Seated. */
  seated?: boolean;
  /** A smaller button (a ward tile). */
  compact?: boolean;
  onRecorded?: (turn: TurnRecorded) => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const store = useStore();
  // The words of a seat's action, or a bed's.
  const words = seated ? 'turns.seated' : 'turns';
  const positions: readonly TurnPosition[] = seated ? ['Seated', ...TURN_POSITIONS.filter((p) => p !== 'Seated')] : TURN_POSITIONS.filter((p) => p !== 'Seated');
  const [open, setOpen] = useState(false);
  const [position, setPosition] = useState<TurnPosition>(positions[0]);
  const [ago, setAgo] = useState<number>(0);
  const [saving, setSaving] = useState(false);
  const [openedAt, setOpenedAt] = useState(() => Date.now());

  const stop = (e: MouseEvent) => e.stopPropagation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      const atMs = ago === 0 ? null : Date.now() - ago * 60_000;
      const turn = await recordTurn(deviceId, position, atMs);
      notify(store, { kind: 'success', key: `${words}.saved`, params: { position: t(`turns.positions.${position}`) } }, 2500);
      setOpen(false);
      setAgo(0);
      onRecorded?.(turn);
    } catch (err) {
      const key = err instanceof ApiError && (err.code === 'invalidTurn' || err.code === 'noRepositioningClock') ? `turns.errors.${err.code}` : 'turns.errors.failed';
      notify(store, { kind: 'error', key }, 4000);
    } finally {
      setSaving(false);
    }
  };

  if (!open) {
    return (
      <button
        type="button"
        className={`btn btn-primary${compact ? ' btn-small' : ''}`}
        data-testid="record-turn"
        onClick={(e) => {
          stop(e);
          setOpenedAt(Date.now());
          setOpen(true);
        }}
      >
        {t(`${words}.record`)}
      </button>
    );
  }
  return (
    <form className="turn-form" data-testid="turn-form" onSubmit={submit} onClick={stop}>
      <label>
        <span>{t('turns.position')}</span>
        <select value={position} onChange={(e) => setPosition(e.target.value as TurnPosition)} data-testid="turn-position">
          {positions.map((p) => (
            <option key={p} value={p}>
              {t(`turns.positions.${p}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t(`${words}.when`)}</span>
        <select value={ago} onChange={(e) => setAgo(Number(e.target.value))} data-testid="turn-when">
          {TURN_AGO_MINUTES.map((m) => (
            <option key={m} value={m}>
              {m === 0 ? t('turns.now') : t('turns.ago', { minutes: m, time: fmt.time(openedAt - m * 60_000) })}
            </option>
          ))}
        </select>
      </label>
      <div className="turn-form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving} data-testid="turn-save">
          {saving ? t('pages.saving') : t(`${words}.save`)}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)} disabled={saving}>
          {t('turns.cancel')}
        </button>
      </div>
    </form>
  );
}
