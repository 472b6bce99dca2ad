import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './api';
import { qualityColour, QUALITY_COLOUR } from './bodyCentre';
import { chartWidth } from './chartWidth';
import { engineResult } from './engineResult';
import { NOTES_MAX, NOTES_ROWS, notesWithinLimit } from './notes';
import { HISTORY_PAGE_SIZE, pageSummary, STORAGE_QUOTA_MB } from './pagination';
import { initialWidgets, reportClock, selectedWidgets, toggleWidget } from './pdfLayout';
import { reportLanguage } from './PdfLayoutModal';
import { firstContactFrame, intervalMs, playbackFrame, playbackLength, SPEEDS, speedLabel, traceIndex } from './playback';
import { creationSeconds, meanGrid, parameter, previewFrames } from './record';
import { MAX_EXPANDED_PANELS, seatingPanels, toggleExpanded } from './seatingPanels';
import { formatFixed } from '../../lib/format';
import { record } from './testing';

describe('history pagination', () => {
  it('pages of 10 with first/last and disabled ends', () => {
    expect(HISTORY_PAGE_SIZE).toBe(10);
    expect(STORAGE_QUOTA_MB).toBe(100);
    expect(pageSummary(1, 25)).toEqual({ page: 1, totalPages: 3, first: 1, last: 10, total: 25, hasPrevious: false, hasNext: true });
    expect(pageSummary(2, 25)).toMatchObject({ first: 11, last: 20, hasPrevious: true, hasNext: true });
    expect(pageSummary(3, 25)).toMatchObject({ first: 21, last: 25, hasPrevious: true, hasNext: false });
  });
  it('exact multiples, one analysis, none, and out-of-range pages', () => {
    expect(pageSummary(2, 20)).toMatchObject({ totalPages: 2, first: 11, last: 20, hasNext: false });
    expect(pageSummary(1, 10)).toMatchObject({ totalPages: 1, hasNext: false });
    expect(pageSummary(1, 11)).toMatchObject({ totalPages: 2, hasNext: true });
    expect(pageSummary(1, 1)).toMatchObject({ first: 1, last: 1, totalPages: 1 });
    expect(pageSummary(1, 0)).toMatchObject({ first: 0, last: 0, totalPages: 1, hasPrevious: false, hasNext: false });
    expect(pageSummary(9, 25)).toMatchObject({ page: 3, first: 21 });
  });
});

describe('notes limit', () => {
  it('1100 characters pass, 1101 do not; 13 rows', () => {
    expect(NOTES_MAX).toBe(1100);
    expect(NOTES_ROWS).toBe(13);
    expect(notesWithinLimit('a'.repeat(1100))).toBe(true);
    expect(notesWithinLimit('a'.repeat(1101))).toBe(false);
    // Counted as the hub counts: characters, not UTF-16 units.
    expect(notesWithinLimit('😀'.repeat(1100))).toBe(true);
  });
});

describe('PDF widgets', () => {
  it('main page always on and locked; notes locked and off without notes', () => {
    const none = initialWidgets('  ');
    expect(none.find((w) => w.widget === 'mainPage')).toEqual({ widget: 'mainPage', checked: true, locked: true });
    expect(none.find((w) => w.widget === 'notes')).toEqual({ widget: 'notes', checked: false, locked: true });
    expect(selectedWidgets(toggleWidget(toggleWidget(none, 'mainPage'), 'notes'))).toEqual(['mainPage', 'pressureMap', 'results', 'histogram']);
  });
  it('with notes, notes are on and can be turned off; other widgets toggle', () => {
    const some = initialWidgets('see heel');
    expect(some.find((w) => w.widget === 'notes')).toEqual({ widget: 'notes', checked: true, locked: false });
    expect(selectedWidgets(toggleWidget(toggleWidget(some, 'notes'), 'histogram'))).toEqual(['mainPage', 'pressureMap', 'results']);
  });
  it("the report's clock is the browser's zone and its offset on the record's day", () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // Summer and winter days: the offset is the zone's on each day, read here another way (the
    // local wall-clock time the zone shows, minus UTC).
    for (const seconds of [1_782_907_200, 1_795_305_600]) {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-GB', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
          .formatToParts(new Date(seconds * 1000))
          .map((p) => [p.type, p.value]),
      );
      const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute) / 1000;
      expect(reportClock(seconds)).toEqual({ utcOffsetMinutes: Math.round((wall - seconds) / 60), timeZone: zone });
    }
    expect(reportClock(1_795_305_600, '')).toEqual({ utcOffsetMinutes: 0 - new Date(1_795_305_600_000).getTimezoneOffset() });
  });
  it('report language from the interface language', () => {
    expect(reportLanguage('en-US')).toBe('en');
    expect(reportLanguage('ja')).toBe('ja');
    expect(reportLanguage('de-DE')).toBe('en');
  });
});

describe('seating panels', () => {
  it('seven panels, six without push-ups', () => {
    expect(seatingPanels(true)).toHaveLength(7);
    expect(seatingPanels(false)).toHaveLength(6);
    expect(seatingPanels(false)).not.toContain('pushUps');
  });
  it('at most 4 expanded; the fifth is refused; collapsing frees a place', () => {
    expect(MAX_EXPANDED_PANELS).toBe(4);
    let open = seatingPanels(true).slice(0, 3);
    const fourth = toggleExpanded(open, 'maxPressure');
    expect(fourth).toEqual({ expanded: [...open, 'maxPressure'], refused: false });
    open = fourth.expanded;
    expect(toggleExpanded(open, 'meanPressure')).toEqual({ expanded: open, refused: true });
    const closed = toggleExpanded(open, 'activePoints');
    expect(closed.expanded).toHaveLength(3);
    expect(toggleExpanded(closed.expanded, 'meanPressure').refused).toBe(false);
  });
});

describe('body centre', () => {
  it('Good green, Bad orange, Uncomplete red', () => {
    expect(qualityColour('Good')).toBe(QUALITY_COLOUR.Good);
    expect(qualityColour('Bad')).toBe(QUALITY_COLOUR.Bad);
    expect(qualityColour('Uncomplete')).toBe(QUALITY_COLOUR.Uncomplete);
    expect(qualityColour('???')).toBe(QUALITY_COLOUR.Uncomplete);
    expect(new Set(Object.values(QUALITY_COLOUR)).size).toBe(3);
  });
});

describe('player timing and frames', () => {
  it('speeds 10/5/1 shown as 1/2/3, interval 20 ms × value: each label faster than the one before', () => {
    expect(SPEEDS.map(speedLabel)).toEqual([1, 2, 3]);
    expect(SPEEDS.map(intervalMs)).toEqual([200, 100, 20]);
    expect([...SPEEDS].sort((a, b) => a - b)).toEqual([1, 5, 10]);
  });
  it('two interpolated frames between captured ones; cells ≤ 5 zeroed; track index / 3', () => {
    const a = { rows: 1, cols: 3, cells: [0, 6, 30] };
    const b = { rows: 1, cols: 3, cells: [9, 6, 0] };
    expect(playbackLength(2)).toBe(4);
    expect(playbackLength(1)).toBe(1);
    expect(playbackFrame([a, b], 0)?.cells).toEqual([0, 6, 30]);
    expect(playbackFrame([a, b], 1)?.cells).toEqual([0, 6, 20]); // 3 → 0 (≤ 5)
    expect(playbackFrame([a, b], 2)?.cells).toEqual([6, 6, 10]);
    expect(playbackFrame([a, b], 3)?.cells).toEqual([9, 6, 0]);
    expect(playbackFrame([a, b], 4)).toBeNull();
    // The video opens at its first captured frame with pressure above the zeroed level.
    const empty = { rows: 1, cols: 3, cells: [0, 5, 2] };
    expect(firstContactFrame([empty, empty, a, b])).toBe(6);
    expect(firstContactFrame([a, b])).toBe(0);
    expect(firstContactFrame([empty, empty])).toBe(0);
    expect([0, 2, 3, 5, 6].map(traceIndex)).toEqual([0, 0, 1, 1, 2]);
  });
});

describe('stored record', () => {
  it('reads a map, frames, parameters and dates', () => {
    expect(previewFrames([[1, 2], [3, 4]])).toEqual([{ rows: 2, cols: 2, cells: [1, 2, 3, 4] }]);
    expect(previewFrames([[[1]], [[3]]])).toHaveLength(2);
    expect(previewFrames([[1, 2], [3]])).toEqual([]);
    expect(previewFrames(null)).toEqual([]);
    expect(meanGrid([{ rows: 1, cols: 1, cells: [1] }, { rows: 1, cols: 1, cells: [4] }])?.cells).toEqual([3]);
    const r = record({ additionalParameters: [{ name: 'x', value: 1 }, ['y', 2]] });
    expect(parameter(r, 'x')).toBe(1);
    expect(parameter(r, 'y')).toBe(2);
    expect(creationSeconds({ creationDate: { $date: '2026-11-22T00:00:00Z' } })).toBe(1_795_305_600);
    expect(creationSeconds({ creationDate: { $date: 1_795_305_600_000 } })).toBe(1_795_305_600);
  });
  it('engine figures only when of the record kind', () => {
    const fig = { analysisType: 'Balance', result: { swayPathLengthCm: 1 } };
    expect(engineResult(record({ analysisType: 'Balance', additionalParameters: [{ name: 'analysisResult', value: fig }] }))).toEqual(fig);
    expect(engineResult(record({ analysisType: 'Static', additionalParameters: [{ name: 'analysisResult', value: fig }] }))).toBeNull();
  });
});

describe('display', () => {
  it('BMI and shares to 1 decimal, rockers to 3', () => {
    expect(formatFixed(24.25, 'en', 1)).toBe('24.3');
    expect(formatFixed(24.2, 'es', 1)).toBe('24,2');
    expect(formatFixed(0.1, 'en', 3)).toBe('0.100');
  });
  it('chart width 500 px from 768 px, else 70 %', () => {
    expect(chartWidth(768)).toBe(500);
    expect(chartWidth(767)).toBe(537);
  });
  it('file name from Content-Disposition', () => {
    expect(fileNameFromDisposition('attachment; filename="static_analysis_report_2023-11-14.pdf"', 'x')).toBe('static_analysis_report_2023-11-14.pdf');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''a%20b.pdf", 'x')).toBe('a b.pdf');
    expect(fileNameFromDisposition(null, 'fallback.pdf')).toBe('fallback.pdf');
  });
});
