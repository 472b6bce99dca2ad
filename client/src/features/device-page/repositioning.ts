//! The repositioning clock's pure rules: the interval form's (the limits come from the hub's
//! answer) and what the countdown says.

export type IntervalCheck = { ok: true; minutes: number } | { ok: false };

/** A whole number of minutes within [min, max]; anything else is refused. */
export function checkInterval(input: string, min: number, max: number): IntervalCheck {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return { ok: false };
  const minutes = Number(text);
  return minutes >= min && minutes <= max ? { ok: true, minutes } : { ok: false };
}

/** What the countdown says with `remainingMs` left (null: nobody lies on the mat): due once under a
 * second is left, which would read "due in 0 secs". */
export function countdownState(remainingMs: number | null): 'nobody' | 'dueNow' | 'dueIn' {
  if (remainingMs === null) return 'nobody';
  return remainingMs < 1000 ? 'dueNow' : 'dueIn';
}
