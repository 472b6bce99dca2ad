//! The dynamic result (spec §2, §4): the video player over the capture's frames (play, pause,
//! step, first/last, speeds 1/5/10 shown as 1/2/3, track, colour, smoothing, contour, 2D/3D), stopping with getOff when the map
//! empties while playing; the rocker durations (3 decimals) and shares (1 decimal) per foot, or
//! dynamic.error / dynamic.error2 when they cannot be computed.

import { useStore } from 'jotai';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../lib/messages';
import type { DynamicResult, FootGait } from './engineResult';
import { centreOfPressure } from './gridFrame';
import { firstContactFrame, isEmptyMap, playbackFrame, playbackLength, SPEEDS, speedLabel, traceIndex, type Speed } from './playback';
import { ResultMap, type MapRendererFactory } from './ResultMap';
import type { Grid } from './record';
import { formatFixed } from '../../lib/format';
import type { PressureDisplay } from '../../lib/pressureUnits';
import { usePlayer } from './usePlayer';
import { usePreviewView, ViewToggles } from './ViewToggles';

const ROCKERS = ['heel', 'ankle', 'forefoot'] as const;

function FootRockers({ side, foot }: { side: 'left' | 'right'; foot: FootGait }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="result-tile-group" data-testid={`rockers-${side}`}>
      <h4>{t(`analysis.static.${side}Foot`)}</h4>
      {foot.rockers ? (
        <table className="result-table">
          <thead>
            <tr>
              <th />
              <th>{t('analysis.dynamic.duration')}</th>
              <th>{t('analysis.dynamic.share')}</th>
            </tr>
          </thead>
          <tbody>
            {ROCKERS.map((r) => (
              <tr key={r}>
                <th>{t(`analysis.dynamic.${r}Rocker`)}</th>
                <td data-testid={`${side}-${r}-s`}>{formatFixed(foot.rockers![`${r}RockerS`], i18n.language, 3)} {t('units.seconds')}</td>
                <td data-testid={`${side}-${r}-share`}>{formatFixed(foot.rockers![`${r}RockerShare`], i18n.language, 1)} %</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="form-error" data-testid={`rockers-${side}-error`}>
          {t(foot.error === 'dynamic.error2' ? 'dynamic.error2' : 'dynamic.error')}
        </p>
      )}
    </section>
  );
}

export function DynamicPlayer({
  frames,
  result,
  createRenderer,
  display,
}: {
  frames: Grid[];
  result: DynamicResult | null;
  createRenderer?: MapRendererFactory;
  /** The device's pressure display, for the colour bar (none without it). */
  display?: PressureDisplay | null;
}) {
  const { t } = useTranslation();
  const store = useStore();
  const length = playbackLength(frames.length);
  const [track, setTrack] = useState(true);
  const [view, changeView] = usePreviewView();
  const trace = useMemo(() => frames.map(centreOfPressure), [frames]);
  // One colour scale for the whole capture: a light step is not drawn as strong as a heavy one.
  const captureTop = useMemo(() => frames.reduce((top, f) => f.cells.reduce((m, v) => (v > m ? v : m), top), 1), [frames]);
  const player = usePlayer(
    length,
    (k) => isEmptyMap(playbackFrame(frames, k)),
    () => showToast(store, 'getOff'),
    firstContactFrame(frames),
  );
  const grid = playbackFrame(frames, player.index);
  const trackPoints = useMemo(
    () => trace.slice(0, traceIndex(player.index) + 1).filter((p): p is [number, number] => p !== null),
    [trace, player.index],
  );

  if (!grid) {
    return <p className="muted" data-testid="video-unavailable">{t('messages.videoNotAvailable')}</p>;
  }
  return (
    <div className="result-dynamic" data-testid="result-dynamic">
      <div className="result-row">
        <div className="player">
          {/* Spec §4: in 3D a pointer press (turning the surface) pauses the video. */}
          <div data-testid="video-map-area" onPointerDown={() => view.is3Dmode && player.playing && player.pause()}>
            <ResultMap
              grid={grid}
              view={view}
              testId="video-map"
              label={t('analysis.dynamic.video')}
              track={track ? trackPoints : undefined}
              createRenderer={createRenderer}
              display={display}
              autoFloor={captureTop}
            />
          </div>
          <ViewToggles view={view} onChange={changeView} colourAndSmoothing />
          <div className="player-controls" data-testid="player" data-playing={String(player.playing)} data-index={player.index} data-length={length}>
            <button type="button" className="btn btn-ghost" onClick={player.first} aria-label={t('analysis.player.first')}>|◀</button>
            <button type="button" className="btn btn-ghost" onClick={() => player.step(-1)} aria-label={t('analysis.player.back')}>◀</button>
            {player.playing ? (
              <button type="button" className="btn btn-primary" onClick={player.pause} data-testid="player-pause">
                {t('analysis.player.pause')}
              </button>
            ) : (
              <button type="button" className="btn btn-primary" onClick={player.play} data-testid="player-play">
                {t('analysis.player.play')}
              </button>
            )}
            <button type="button" className="btn btn-ghost" onClick={() => player.step(1)} aria-label={t('analysis.player.forward')}>▶</button>
            <button type="button" className="btn btn-ghost" onClick={player.last} aria-label={t('analysis.player.last')}>▶|</button>
            <label className="player-speed">
              {t('analysis.player.speed')}
              <select value={player.speed} onChange={(e) => player.setSpeed(Number(e.target.value) as Speed)} data-testid="player-speed">
                {SPEEDS.map((s) => (
                  <option key={s} value={s}>
                    {speedLabel(s)}
                  </option>
                ))}
              </select>
            </label>
            <label className="player-toggle">
              <input type="checkbox" checked={track} onChange={(e) => setTrack(e.target.checked)} data-testid="player-track" />
              {t('analysis.player.track')}
            </label>
            <span className="muted" data-testid="player-position">
              {player.index + 1} / {length}
            </span>
          </div>
        </div>
        {result ? (
          <div className="result-panels">
            <FootRockers side="left" foot={result.left} />
            <FootRockers side="right" foot={result.right} />
          </div>
        ) : (
          <p className="muted" data-testid="figures-unavailable">
            {t('analysis.figuresUnavailable')}
          </p>
        )}
      </div>
    </div>
  );
}
