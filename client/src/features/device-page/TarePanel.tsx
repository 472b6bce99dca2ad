//! The mat's tare on the device page: the idle level the hub subtracts from every frame (learnt
//! while the mat is empty, or zeroed by an administrator), and the administrators' "zero the empty
//! mat" (POST /api/device/{id}/tare; the hub refuses it while someone lies on the mat).

import { useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, getTare, zeroTare } from '../../lib/api';
import { formatDateTime, formatNumber } from '../../lib/format';
import { notify } from '../../lib/notifications';
import { useIsAdmin } from '../../lib/session';
import { usePolling } from './usePolling';

/** How often the page re-reads the tare (it changes at most once a learning window, 30 s). */
export const TARE_POLL_MS = 15000;

export function TarePanel({ deviceId }: { deviceId: string }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language;
  const store = useStore();
  const isAdmin = useIsAdmin();
  const tare = usePolling(() => getTare(deviceId), TARE_POLL_MS, `tare/${deviceId}`);
  const [zeroing, setZeroing] = useState(false);
  const data = tare.data;

  const zero = async () => {
    setZeroing(true);
    try {
      await zeroTare(deviceId);
      notify(store, { kind: 'success', key: 'tare.zeroed' }, 2500);
      tare.refresh();
    } catch (err) {
      const code = err instanceof ApiError ? err.code : '';
      const key = code === 'tareOccupied' ? 'tare.refusedOccupied' : code === 'tareNoEmptyFrame' ? 'tare.refusedNoFrame' : 'tare.zeroFailed';
      notify(store, { kind: 'error', key }, 4000);
    } finally {
      setZeroing(false);
    }
  };

  const mmHg = (value: number) => `${formatNumber(value, lng, 1)} mmHg`;

  return (
    <section className="card tare-panel" data-testid="tare">
      <h2>{t('tare.title')}</h2>
      <p className="tare-level" data-testid="tare-level">
        {!data
          ? tare.failed
            ? t('tare.unavailable')
            : t('pages.loading')
          : data.set
            ? t('tare.level', { mean: mmHg(data.meanMmHg), max: mmHg(data.maxMmHg) })
            : t('tare.none')}
      </p>
      {data?.set && data.setAtMs != null ? (
        <p className="muted" data-testid="tare-source">
          {t(data.source === 'zeroed' ? 'tare.sourceZeroed' : 'tare.sourceLearnt', { date: formatDateTime(data.setAtMs, lng) })}
        </p>
      ) : null}
      {isAdmin ? (
        <button type="button" className="btn btn-secondary" data-testid="tare-zero" disabled={!data || zeroing} onClick={zero}>
          {zeroing ? t('tare.zeroing') : t('tare.zero')}
        </button>
      ) : null}
    </section>
  );
}
