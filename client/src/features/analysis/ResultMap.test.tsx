import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HeatMapRenderer } from '../../lib/heatmap/renderer';
import type { PreparedMap } from '../../lib/heatmap/prepare';
import { DEFAULT_VIEW_OPTIONS, viewOptionsAtom } from '../../lib/heatmap/viewOptions';
import { DynamicPlayer } from './DynamicPlayer';
import type { Grid } from './record';
import { ResultMap } from './ResultMap';
import { analysisStore, renderAnalysis } from './testing';
import { usePressureDisplay } from '../../lib/pressureUnits';

/** A renderer factory that keeps every map it is asked to draw. */
function recordingRenderer() {
  const drawn: PreparedMap[] = [];
  const factory = () =>
    Promise.resolve<HeatMapRenderer>({
      kind: 'canvas2d',
      draw: (map) => {
        if (map) drawn.push(map);
      },
      destroy: () => {},
    });
  return { drawn, factory };
}

/** A lying body's stored map on a bed mat (0.4 mmHg a step): its highest cell 80 steps, 32 mmHg. */
const bedMap: Grid = { rows: 2, cols: 3, cells: [0, 10, 80, 5, 40, 0] };

function BedMap({ grid, factory, legend = true }: { grid: Grid; factory: () => Promise<HeatMapRenderer>; legend?: boolean }) {
  const display = usePressureDisplay('Mattress Mat IoT');
  return <ResultMap grid={grid} testId="static-map" label="map" createRenderer={factory} display={legend ? display : undefined} />;
}

describe("a stored capture's map", () => {
  it("runs its colours from zero to its own highest cell, as the PDF's map does, and says so in the user's unit", async () => {
    const { drawn, factory } = recordingRenderer();
    await renderAnalysis(<BedMap grid={bedMap} factory={factory} />);
    await screen.findByTestId('static-map-legend');
    // The live map's floor (256 for two-byte cells) drew a real body's 32 mmHg as a dark blue.
    expect(drawn.at(-1)?.scale).toBe(80);
    expect(screen.getByTestId('static-map-legend-max')).toHaveTextContent(/^32\s?mmHg$/);
    expect(screen.getByTestId('static-map-legend')).toHaveTextContent(/^0\s?mmHg/);
    expect(screen.getByTestId('static-map-legend')).toHaveTextContent('automatic scale');
  });

  it("follows the user's manual scale, and the colour bar says it is manual", async () => {
    const store = analysisStore();
    store.set(viewOptionsAtom, { ...DEFAULT_VIEW_OPTIONS, manualScale: true, manualScaleValue: 125 });
    const { drawn, factory } = recordingRenderer();
    await renderAnalysis(<BedMap grid={bedMap} factory={factory} />, store);
    await screen.findByTestId('static-map-legend');
    expect(drawn.at(-1)?.scale).toBe(125);
    expect(screen.getByTestId('static-map-legend-max')).toHaveTextContent(/^50\s?mmHg$/);
    expect(screen.getByTestId('static-map-legend')).toHaveTextContent('manual scale');
  });

  it('shows no colour bar where the view gives no pressure display', async () => {
    const { factory } = recordingRenderer();
    await renderAnalysis(<BedMap grid={bedMap} factory={factory} legend={false} />);
    expect(screen.getByTestId('static-map')).toBeInTheDocument();
    expect(screen.queryByTestId('static-map-legend')).toBeNull();
  });

  it("a player keeps one scale for the whole capture: a light step is not drawn as strong as a heavy one", async () => {
    const { drawn, factory } = recordingRenderer();
    const frames: Grid[] = [
      { rows: 1, cols: 2, cells: [20, 10] },
      { rows: 1, cols: 2, cells: [90, 30] },
    ];
    function Player() {
      return <DynamicPlayer frames={frames} result={null} createRenderer={factory} display={usePressureDisplay('Mattress Mat IoT')} />;
    }
    await renderAnalysis(<Player />);
    await screen.findByTestId('video-map-legend');
    // The first frame (its own highest 20) is drawn on the capture's scale, 90.
    expect(drawn.at(-1)?.max).toBe(20);
    expect(drawn.at(-1)?.scale).toBe(90);
    expect(screen.getByTestId('video-map-legend-max')).toHaveTextContent(/^36\s?mmHg$/);
  });
});
