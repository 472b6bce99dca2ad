//! How wide a tile's large text is, in ems of its bold font (pure): the board sets its bed label,
//! countdown and "Patient missing" as large as their size allows but no larger than fits their
//! column on one line (`font-size: min(size, 100cqw / ems)` in ward.css), so "103 · Wheelchair" is
//! read whole rather than cut to "103 · Wh…", ru "1 ч 57 мин" is not cut to "1 ч 57 ми", and
//! "107 · A" stays large. Estimates per character, on the wide side:
//! a full-width character (CJK, kana, Hangul) is 1 em, any other 0.72 em (bold digits, capitals
//! and Cyrillic of the UI's sans-serif fonts). A text still wider than its estimate wraps instead
//! (never cut). A text that may take two lines ("Patient missing") is fitted by its widest line
//! when split in two at the best space, so it never takes three (el "Ο ασθενής λείπει").

/** The estimated width of one character of the label's font, in ems. */
const NARROW_EM = 0.72;
const WIDE_EM = 1;

/** Full-width scripts: CJK ideographs and punctuation, kana, Hangul, full-width forms. */
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** The text's estimated width in ems on one line (at least 1). */
export function textEms(text: string): number {
  let ems = 0;
  for (const ch of text) ems += WIDE.test(ch) ? WIDE_EM : NARROW_EM;
  return Math.max(1, Math.round(ems * 100) / 100);
}

/** The estimated width in ems of the text set on two lines, split at the space that makes the
 * wider line narrowest (a text of one word: that word). */
export function twoLineEms(text: string): number {
  const words = text.trim().split(/\s+/);
  let best = textEms(text);
  for (let i = 1; i < words.length; i++) {
    best = Math.min(best, Math.max(textEms(words.slice(0, i).join(' ')), textEms(words.slice(i).join(' '))));
  }
  return best;
}
