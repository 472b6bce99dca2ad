//! The company's shifts: everyone sees them (the figures are per shift); an administrator edits
//! each shift's start on the local clock and the company's time zone. The hub checks and audits
//! the change (`PUT /api/complianceSettings`).

import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { notify } from '../../lib/notifications';
import { isAdminAtom } from '../../lib/session';
import { putShiftSettings, type ShiftSettingsJson } from './complianceApi';
import { clockToMinutes, minutesToClock } from './figures';

/** The hub's refusals the form names; anything else is "not saved". */
const NAMED_REFUSALS = ['invalidShifts', 'invalidTimeZone'];
const MAX_SHIFTS = 6;

function zones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
}

export function ShiftSettings({ settings, onSaved }: { settings: ShiftSettingsJson | null; onSaved: (s: ShiftSettingsJson) => void }) {
  const { t } = useTranslation();
  const store = useStore();
  const admin = useAtomValue(isAdminAtom);
  const [draft, setDraft] = useState<{ starts: string[]; zone: string } | null>(null);
  const [saving, setSaving] = useState(false);
  if (!settings) return null;
  const starts = settings.shiftStarts;
  const summary = starts.map((s, i) => `${minutesToClock(s)}–${minutesToClock(starts[(i + 1) % starts.length]!)}`).join(' · ');

  const save = async () => {
    if (!draft) return;
    const minutes = draft.starts.map(clockToMinutes);
    if (minutes.some((m) => m === null)) {
      notify(store, { kind: 'error', key: 'compliance.shiftTimeInvalid' }, 3000);
      return;
    }
    setSaving(true);
    try {
      onSaved(await putShiftSettings({ shiftStarts: minutes as number[], timeZone: draft.zone.trim() }));
      setDraft(null);
    } catch (err) {
      const key = err instanceof ApiError && NAMED_REFUSALS.includes(err.code) ? err.code : 'compliance.settingsFailed';
      notify(store, { kind: 'error', key }, 3000);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="compliance-shifts" aria-labelledby="compliance-shifts-title">
      <h2 id="compliance-shifts-title">{t('compliance.shifts')}</h2>
      <p data-testid="compliance-shift-summary">
        {summary} <span className="compliance-zone">({t('compliance.timeZone')}: {settings.timeZone})</span>
      </p>
      {admin && !draft ? (
        <button type="button" className="btn btn-ghost" data-testid="compliance-edit-shifts" onClick={() => setDraft({ starts: starts.map(minutesToClock), zone: settings.timeZone })}>
          {t('compliance.editShifts')}
        </button>
      ) : null}
      {admin && draft ? (
        <form
          className="compliance-shift-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          {draft.starts.map((value, i) => (
            <label key={i} className="compliance-shift-start">
              {t('compliance.shiftStarts', { n: i + 1 })}
              <input
                type="text"
                inputMode="numeric"
                placeholder="07:00"
                value={value}
                data-testid="compliance-shift-start"
                onChange={(e) => setDraft({ ...draft, starts: draft.starts.map((s, j) => (j === i ? e.target.value : s)) })}
              />
              {draft.starts.length > 1 ? (
                <button type="button" className="btn btn-ghost" onClick={() => setDraft({ ...draft, starts: draft.starts.filter((_, j) => j !== i) })}>
                  {t('compliance.removeShift')}
                </button>
              ) : null}
            </label>
          ))}
          {draft.starts.length < MAX_SHIFTS ? (
            <button type="button" className="btn btn-ghost" onClick={() => setDraft({ ...draft, starts: [...draft.starts, ''] })}>
              {t('compliance.addShift')}
            </button>
          ) : null}
          <label className="compliance-zone-field">
            {t('compliance.timeZone')}
            <input type="text" list="compliance-zones" value={draft.zone} data-testid="compliance-time-zone" onChange={(e) => setDraft({ ...draft, zone: e.target.value })} />
            <datalist id="compliance-zones">
              {zones().map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </label>
          <div className="compliance-shift-actions">
            <button type="submit" className="btn" disabled={saving} data-testid="compliance-save-shifts">
              {t('compliance.saveShifts')}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setDraft(null)}>
              {t('compliance.cancel')}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
