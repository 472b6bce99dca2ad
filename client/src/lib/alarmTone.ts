//! The audible alarm signal (issue 23): a burst pattern per priority after IEC 60601-1-8 (table 3),
//! repeated while an alarm of that priority waits, muted per session, and started only after the
//! user's first interaction (browsers keep an AudioContext suspended until then).
//!
//! Priorities (docs/decisions.md, "Alarm sounds"): Missing is medium (a patient out of bed may have
//! fallen); an Ulcer Risk alarm is low while the turn is due and medium once it is overdue. No
//! alarm here is high priority: high is for immediate danger to life, which a mat cannot tell.
//!
//! `ToneScheduler` is the timing, pure over `setTimeout` (tests run it with fake timers);
//! `WebAudioTone` is the sound.

import type { RepositioningTier } from './api';
import type { AlarmKindName } from './pendingAlarms';

export type TonePriority = 'medium' | 'low';

export interface TonePattern {
  priority: TonePriority;
  /** Pulses per burst: IEC 60601-1-8 medium 3, low 1 or 2. */
  pulses: number;
  /** Pulse duration (125–250 ms) and the gap between pulses (125–250 ms). */
  pulseMs: number;
  gapMs: number;
  /** From one burst's start to the next: medium 2.5–30 s, low over 15 s. */
  repeatMs: number;
  /** Fundamental frequency (150–1000 Hz), sounded with harmonics. */
  frequencyHz: number;
}

export const TONE_PATTERNS: Readonly<Record<TonePriority, TonePattern>> = {
  medium: { priority: 'medium', pulses: 3, pulseMs: 200, gapMs: 200, repeatMs: 7_500, frequencyHz: 523 },
  low: { priority: 'low', pulses: 2, pulseMs: 200, gapMs: 250, repeatMs: 20_000, frequencyHz: 392 },
};

/** The priority of one alarm: Missing medium; Ulcer Risk low while due, medium once overdue. */
export function alarmPriority(kind: AlarmKindName, tier: RepositioningTier): TonePriority {
  if (kind === 'Missing') return 'medium';
  return tier === 'overdue' ? 'medium' : 'low';
}

/** The highest priority among the waiting alarms, or null when none waits. */
export function highestPriority(priorities: readonly TonePriority[]): TonePriority | null {
  if (priorities.includes('medium')) return 'medium';
  return priorities.length > 0 ? 'low' : null;
}

/** Sounds one burst. */
export type BurstPlayer = (pattern: TonePattern) => void;

/** Plays the burst of the current priority at once and then every `repeatMs`, while not muted and
 * armed (after the user's first interaction); a higher priority replaces a lower one at once. */
export class ToneScheduler {
  private priority: TonePriority | null = null;
  private muted = false;
  private armed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly play: BurstPlayer;

  constructor(play: BurstPlayer) {
    this.play = play;
  }

  /** What should sound now; unchanged inputs keep the running rhythm. */
  update(priority: TonePriority | null, muted: boolean, armed: boolean): void {
    const changed = priority !== this.priority || muted !== this.muted || armed !== this.armed;
    this.priority = priority;
    this.muted = muted;
    this.armed = armed;
    if (changed) this.restart();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private restart(): void {
    this.stop();
    if (!this.priority || this.muted || !this.armed) return;
    const pattern = TONE_PATTERNS[this.priority];
    const burst = () => {
      this.play(pattern);
      this.timer = setTimeout(burst, pattern.repeatMs);
    };
    burst();
  }
}

/** The bursts through Web Audio: one context, created and resumed on the user's first
 * interaction; each pulse an oscillator with five harmonics under a short attack and release. */
export class WebAudioTone {
  private ctx: AudioContext | null = null;
  private wave: PeriodicWave | null = null;
  /** Bursts actually scheduled on a running context (the tour reads it). */
  played = 0;

  /** Creates and resumes the context; call from a user gesture. */
  arm(): void {
    if (typeof window === 'undefined' || typeof window.AudioContext !== 'function') return;
    if (!this.ctx) {
      this.ctx = new window.AudioContext();
      const real = new Float32Array([0, 1, 0.6, 0.45, 0.35, 0.3]);
      this.wave = this.ctx.createPeriodicWave(real, new Float32Array(real.length));
    }
    if (this.ctx.state === 'suspended') void this.ctx.resume();
  }

  get state(): string {
    return this.ctx?.state ?? 'none';
  }

  readonly play: BurstPlayer = (pattern) => {
    const ctx = this.ctx;
    if (!ctx || ctx.state !== 'running' || !this.wave) return;
    const start = ctx.currentTime + 0.01;
    for (let i = 0; i < pattern.pulses; i++) {
      const at = start + (i * (pattern.pulseMs + pattern.gapMs)) / 1000;
      const end = at + pattern.pulseMs / 1000;
      const osc = ctx.createOscillator();
      osc.setPeriodicWave(this.wave);
      osc.frequency.value = pattern.frequencyHz;
      const gain = ctx.createGain();
      gain.gain.setValueAtTime(0, at);
      gain.gain.linearRampToValueAtTime(0.25, at + 0.02);
      gain.gain.setValueAtTime(0.25, end - 0.02);
      gain.gain.linearRampToValueAtTime(0, end);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(end);
    }
    this.played += 1;
  };
}
