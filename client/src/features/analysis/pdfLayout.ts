//! The PDF layout modal's widget rules (spec §5): Main Page always on and locked; Notes locked and
//! off when the analysis has no notes. The hub prints the widgets in its own fixed order, with the
//! user's own map colours.

import { PALETTES } from '../../lib/heatmap/palettes';
import { paletteIndex, type ViewOptions } from '../../lib/heatmap/viewOptions';
import type { PdfWidget } from './api';

export const PDF_WIDGETS: readonly PdfWidget[] = ['mainPage', 'pressureMap', 'results', 'histogram', 'notes'];

export interface WidgetState {
  widget: PdfWidget;
  checked: boolean;
  locked: boolean;
}

export function hasNotes(notes: string | null | undefined): boolean {
  return Boolean(notes && notes.trim().length > 0);
}

/** Every widget on (Notes only with notes); Main Page and, without notes, Notes are locked. */
export function initialWidgets(notes: string | null | undefined): WidgetState[] {
  const withNotes = hasNotes(notes);
  return PDF_WIDGETS.map((widget) => {
    if (widget === 'mainPage') return { widget, checked: true, locked: true };
    if (widget === 'notes') return { widget, checked: withNotes, locked: !withNotes };
    return { widget, checked: true, locked: false };
  });
}

/** Flips one widget unless it is locked. */
export function toggleWidget(states: WidgetState[], widget: PdfWidget): WidgetState[] {
  return states.map((s) => (s.widget === widget && !s.locked ? { ...s, checked: !s.checked } : s));
}

/** The widgets to ask for, in the hub's order. */
export function selectedWidgets(states: WidgetState[]): PdfWidget[] {
  return states.filter((s) => s.checked).map((s) => s.widget);
}

/** The map colours of a PDF as the user sees them on screen: their palette (by the id the shared
 * palette file gives it) and, when the manual scale is on, its value as the top of the scale. */
export function pdfColours(view: Pick<ViewOptions, 'mapColorIndex' | 'manualScale' | 'manualScaleValue'>): { palette: string; manualScale?: number } {
  const palette = PALETTES[paletteIndex(view.mapColorIndex)].id;
  return view.manualScale ? { palette, manualScale: view.manualScaleValue } : { palette };
}

/** The user's clock for a report of a record made at `creationSeconds` (Unix s): the browser's
 * IANA zone (printed beside the time) and its offset from UTC on that day, summer time included.
 * The hub has no zone database, so it prints the time the browser says the record was made. */
export function reportClock(creationSeconds: number, timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone): { utcOffsetMinutes: number; timeZone?: string } {
  const utcOffsetMinutes = 0 - new Date(creationSeconds * 1000).getTimezoneOffset();
  return timeZone ? { utcOffsetMinutes, timeZone } : { utcOffsetMinutes };
}
