//! The result views' drawing toggles (spec §2, §4): heat map / contour and 2D / 3D (mutually
//! exclusive, as on the live page), and for the video also colour (the next of the 13 palettes)
//! and smoothing. They start from the user's own view options and change only this preview.

import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { nextPalette, set3d, setContours, smoothingIndex, SMOOTHING_LEVELS, viewOptionsAtom, type ViewOptions } from '../../lib/heatmap/viewOptions';

/** A preview's own copy of the user's view options. */
export function usePreviewView(): [ViewOptions, (change: (v: ViewOptions) => ViewOptions) => void] {
  const user = useAtomValue(viewOptionsAtom);
  const [view, setView] = useState(user);
  return [view, (change) => setView((v) => change(v))];
}

export function ViewToggles({ view, onChange, colourAndSmoothing = false }: { view: ViewOptions; onChange: (change: (v: ViewOptions) => ViewOptions) => void; colourAndSmoothing?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="view-toggles" data-testid="result-view-toggles">
      <button type="button" className="btn btn-ghost" aria-pressed={view.contoursEnabled} onClick={() => onChange((v) => setContours(v, !v.contoursEnabled))} data-testid="toggle-contour">
        {t('view.contour')}
      </button>
      <button type="button" className="btn btn-ghost" aria-pressed={view.is3Dmode} onClick={() => onChange((v) => set3d(v, !v.is3Dmode))} data-testid="toggle-3d">
        {t('view.threeD')}
      </button>
      {colourAndSmoothing ? (
        <>
          <button type="button" className="btn btn-ghost" onClick={() => onChange(nextPalette)} data-testid="toggle-colour">
            {t('view.colour')}
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => onChange((v) => ({ ...v, smoothenIndex: smoothingIndex(v.smoothenIndex + 1) }))}
            data-testid="toggle-smoothing"
            data-level={SMOOTHING_LEVELS[smoothingIndex(view.smoothenIndex)]}
          >
            {t('view.smoothing')}: {t(`view.smooth.${SMOOTHING_LEVELS[smoothingIndex(view.smoothenIndex)]}`)}
          </button>
        </>
      ) : null}
    </div>
  );
}
