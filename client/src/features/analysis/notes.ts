//! Analysis notes rules (spec §5): at most 1100 characters in a 13-row editor. The hub checks the
//! same limit and answers `analysisNotes` beyond it.

export const NOTES_MAX = 1100;
export const NOTES_ROWS = 13;

/** Characters as the hub counts them (Unicode scalar values, not UTF-16 units). */
export function notesLength(notes: string): number {
  return Array.from(notes).length;
}

export function notesWithinLimit(notes: string): boolean {
  return notesLength(notes) <= NOTES_MAX;
}
