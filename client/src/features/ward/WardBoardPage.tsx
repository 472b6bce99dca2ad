//! The ward board (issue 23): `/ward` shows every bed, seat and room set of the company, `/ward/{unit}`
//! those of one unit (a building and floor), as live tiles ordered by urgency — Missing and overdue
//! first, then due, due soon, fine, offline. One WebGL canvas draws every tile's map
//! (`wardRenderer.ts`). Layouts: a 2560 × 1440 wall monitor (48 tiles, 8 × 6), a tablet and a phone
//! (ward.css).

import { atom, useAtomValue } from 'jotai';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router-dom';
import { SocketStatusBanner } from '../../components/SocketStatusBanner';
import { TopBar } from '../../components/TopBar';
import { deviceTypesAtom, typeInfo } from '../../lib/deviceTypes';
import { deviceIdsAtom, deviceInfoFamily, devicesLoadedAtom, deviceViewFamily } from '../../lib/devicesStore';
import { lutFor } from '../../lib/heatmap/palettes';
import { useLiveLink } from '../../lib/liveLink';
import { viewOptionsAtom } from '../../lib/heatmap/viewOptions';
import { pendingAlarmsAtom } from '../../lib/pendingAlarms';
import { useServices } from '../../lib/services';
import { boardUnitAtom } from '../../lib/session';
import { useDevicesSync } from '../devices';
import { AlarmReasonText, RecordTurnButton } from '../turns';
import { onWardBoard, tileModel } from './tiles';
import { listUnits, unitFromKey, unitOf, unitPath } from './unit';
import { boardOrder } from './urgency';
import { useSecondTick, useWardClocks } from './useWardClocks';
import { WallScreens } from './WallScreens';
import { PatientNamesSwitch, useWardSettings } from './WardSettings';
import { WardTile } from './WardTile';
import { createWardRenderer, type WardMapRenderer, type WardRendererFactory } from './wardRenderer';
import './ward.css';

/** The devices on the board: beds, seats and room sets, with their members' views. */
const wardViewsAtom = atom((get) => {
  const table = get(deviceTypesAtom);
  return get(deviceIdsAtom)
    .filter((id) => onWardBoard(get(deviceInfoFamily(id)), table))
    .map((id) => {
      const view = get(deviceViewFamily(id));
      const members = (view.device?.system?.devices ?? []).map((m) => get(deviceViewFamily(m)));
      return { view, members };
    });
});

export interface WardBoardPageProps {
  createRenderer?: WardRendererFactory;
  /** Slot for issue 23's "Patient turned" on a tile (not built here). */
  turnAction?: (deviceId: string) => ReactNode;
  /** Slot for an Ulcer Risk alarm's reason on a tile (not built here). */
  alarmReason?: (deviceId: string) => ReactNode;
}

/** The one map renderer of the board, created once for the page. */
function useWardRenderer(host: HTMLElement | null, factory: WardRendererFactory) {
  const { liveMaps } = useServices();
  const palette = useAtomValue(viewOptionsAtom).mapColorIndex;
  const [renderer, setRenderer] = useState<WardMapRenderer | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!host) return;
    let disposed = false;
    let made: WardMapRenderer | null = null;
    factory(host, liveMaps, lutFor(palette))
      .then((r) => {
        if (disposed) return r.destroy();
        made = r;
        host.dataset.renderer = r.kind;
        setRenderer(r);
      })
      .catch((err) => {
        console.error('ward map renderer failed', err);
        if (!disposed) setFailed(true);
      });
    return () => {
      disposed = true;
      made?.destroy();
      setRenderer(null);
    };
  }, [host, factory, liveMaps, palette]);
  return { renderer, failed };
}

/** Keeps the map canvas's host below the page's sticky top bar (its top at the bar's height, which
 * wraps to more lines on a phone) and places the maps again when it moves: under the opaque bar,
 * Chromium's compositor dropped a band of the canvas as tall as the bar at its bottom
 * (`wardRenderer.ts`). */
function useHostBelowTopBar(host: HTMLElement | null, renderer: WardMapRenderer | null) {
  useLayoutEffect(() => {
    const bar = host?.parentElement?.querySelector<HTMLElement>('.topbar');
    if (!host || !bar) return;
    const follow = () => {
      host.style.top = `${Math.max(0, Math.round(bar.getBoundingClientRect().height))}px`;
      renderer?.relayout();
    };
    follow();
    const observer = new ResizeObserver(follow);
    observer.observe(bar);
    return () => observer.disconnect();
  }, [host, renderer]);
}

/** Live maps of the board's devices: subscribed while the board shows them. */
function useLiveSubscriptions(ids: readonly string[]) {
  const { socket } = useServices();
  // The set of devices, not their order: a tile moving up does not subscribe again.
  const key = [...ids].sort().join(',');
  useEffect(() => {
    if (!socket || !key) return;
    const list = key.split(',');
    for (const id of list) socket.joinUser(id);
    return () => {
      for (const id of list) socket.leaveUser(id);
    };
  }, [socket, key]);
}

export function WardBoardPage({ createRenderer = createWardRenderer, turnAction, alarmReason }: WardBoardPageProps) {
  const { t } = useTranslation();
  useDevicesSync();
  const { unit: unitParam } = useParams();
  // A paired wall screen (role 3) shows its own unit only, read-only (docs/decisions.md).
  const boardUnit = useAtomValue(boardUnitAtom);
  const wallScreen = boardUnit !== null;
  const unit = wallScreen ? boardUnit : unitParam;
  const views = useAtomValue(wardViewsAtom);
  const pending = useAtomValue(pendingAlarmsAtom);
  const table = useAtomValue(deviceTypesAtom);
  const loaded = useAtomValue(devicesLoadedAtom) && table !== null;
  const { clocks, failed: clocksFailed } = useWardClocks();
  const [settings, setSettings] = useWardSettings();
  const now = useSecondTick();
  const [host, setHost] = useState<HTMLDivElement | null>(null);
  const { renderer, failed } = useWardRenderer(host, createRenderer);
  useHostBelowTopBar(host, renderer);
  // While the socket is lost every map is greyed (the tiles say since when).
  const link = useLiveLink();

  const units = useMemo(() => listUnits(views.flatMap(({ view }) => (view.device ? [view.device] : []))), [views]);
  const knownUnit = unit === undefined || units.some((u) => u.key === unit);
  const tiles = useMemo(() => {
    const shown = views.filter(({ view }) => unit === undefined || (view.device ? unitOf(view.device) : '') === unit);
    return boardOrder(shown.map(({ view, members }) => tileModel(view, members, pending, clocks, table, settings.patientInitials)));
  }, [views, unit, pending, clocks, table, settings.patientInitials]);
  useLiveSubscriptions(useMemo(() => tiles.flatMap((tile) => (tile.mapDeviceId ? [tile.mapDeviceId] : [])), [tiles]));

  // Tiles may have moved (new order, a banner, new sizes): the maps follow at the next frame.
  const gridRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => renderer?.relayout());
  useEffect(() => {
    const grid = gridRef.current;
    if (!grid || !renderer) return;
    const observer = new ResizeObserver(() => renderer.relayout());
    observer.observe(grid);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [renderer, loaded]);

  const unitLabel = (u: { building: string; floor: string }) => t('ward.unitLabel', { building: u.building || '—', floor: u.floor || '—' });
  const current = units.find((u) => u.key === unit);
  const title = current ? t('ward.unitTitle', { unit: unitLabel(current) }) : t('ward.title');
  const labelOfKey = (key: string) => unitLabel(unitFromKey(key));
  const relayout = useCallback(() => renderer?.relayout(), [renderer]);
  if (wallScreen && unitParam !== boardUnit) return <Navigate to={unitPath(boardUnit)} replace />;
  return (
    <div className={`page ward-page${wallScreen ? ' is-wall-screen' : ''}`} data-wall-screen={wallScreen ? 'true' : undefined}>
      <TopBar>
        {wallScreen ? (
          <span className="ward-wall-badge" data-testid="wall-screen-badge">
            {t('wardScreens.badge')}
          </span>
        ) : (
          <>
            <Link className="btn btn-ghost" to="/ward/compliance" data-testid="compliance-link">
              {t('compliance.open')}
            </Link>
            <Link className="btn btn-ghost" to="/devices">
              {t('ward.devices')}
            </Link>
          </>
        )}
      </TopBar>
      <div ref={setHost} className="ward-canvas-host" aria-hidden="true" data-stale={link.stale ? 'true' : undefined} />
      <main className="ward-content">
        <SocketStatusBanner />
        <div className="ward-heading">
          <h1>{title}</h1>
          {wallScreen ? null : (
          <nav className="ward-units" aria-label={t('ward.units')}>
            <Link className={`ward-unit${unit === undefined ? ' is-current' : ''}`} to="/ward" data-testid="ward-unit-all">
              {t('ward.allUnits')}
            </Link>
            {units
              .filter((u) => u.key !== '')
              .map((u) => (
                <Link key={u.key} className={`ward-unit${u.key === unit ? ' is-current' : ''}`} to={unitPath(u.key)} data-testid="ward-unit">
                  {unitLabel(u)}
                  <span className="ward-unit-count"> ({u.tiles})</span>
                </Link>
              ))}
          </nav>
          )}
          {wallScreen ? null : <PatientNamesSwitch settings={settings} onSaved={setSettings} />}
          {clocksFailed ? (
            <span className="ward-warning" role="status">
              {t('ward.clocksFailed')}
            </span>
          ) : null}
        </div>
        {wallScreen ? null : <WallScreens unit={unit} unitLabel={labelOfKey} onResize={relayout} />}
        {!loaded ? (
          <div className="devices-empty">{t('devices.loading')}</div>
        ) : !knownUnit ? (
          <div className="devices-empty" data-testid="ward-unknown-unit">
            {t('ward.unknownUnit', { unit })}
          </div>
        ) : tiles.length === 0 ? (
          <div className="devices-empty">{t('ward.empty')}</div>
        ) : (
          <div ref={gridRef} className="ward-grid" data-testid="ward-grid" data-renderer={renderer?.kind ?? ''}>
            {tiles.map((tile) => (
              <WardTile
                key={tile.id}
                tile={tile}
                now={now}
                renderer={renderer}
                mapUnavailable={failed}
                readOnly={wallScreen}
                turnAction={
                  wallScreen
                    ? null
                    : turnAction
                    ? turnAction(tile.id)
                    : // Nothing to record on an offline bed, nor on one whose patient is missing
                      // (nobody to turn: its action is the Missing alarm's Attend).
                      typeInfo(table, tile.deviceType)?.repositioningClock &&
                      tile.cardStatus !== 'Offline' &&
                      tile.cardStatus !== 'Missing' && (
                        <RecordTurnButton deviceId={tile.id} compact seated={typeInfo(table, tile.deviceType)?.pageFamily === 'seating'} />
                      )
                }
                alarmReason={
                  alarmReason ? alarmReason(tile.id) : <AlarmReasonText reason={pending.find((a) => a.deviceId === tile.id && a.kind === 'Ulcer Risk')?.reason} />
                }
              />
            ))}
          </div>
        )}
      </main>
    </div>
  );
}
