//! The repositioning interval form's rule (the limits come from the hub's answer).

export type IntervalCheck = { ok: true; minutes: number } | { ok: false };

/** A whole number of minutes within [min, max]; anything else is refused. */
export function checkInterval(input: string, min: number, max: number): IntervalCheck {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return { ok: false };
  const minutes = Number(text);
  return minutes >= min && minutes <= max ? { ok: true, minutes } : { ok: false };
}
