//! Per-device store of the latest live pressure map, kept outside React and jotai: the socket writes
//! each `pressureMap_SAToFront` here and the heat-map renderer reads it, so a 30 fps stream costs no
//! React render. Spec §4: with no frame for 5 s the map is blanked. While the browser's socket
//! itself is down ([`LiveMapStore.setLive`]), no frame says nothing about the mat: the last frame
//! is kept (the pages mark it stale) and the 5 s start again once the socket is back.

export const BLANK_AFTER_MS = 5000;

export type Presence = 'PRESENCE' | 'ABSENCE';

export interface LiveFrame {
  deviceId: string;
  seq: number;
  deviceTimeMs: number;
  hubTimeMs: number;
  rows: number;
  cols: number;
  bytesPerCell: 1 | 2;
  /** rows × cols × bytesPerCell bytes, row-major, little-endian for 2; empty when blank. */
  cells: Uint8Array;
  presence: Presence;
  /** True when the hub said so, or when no frame came for 5 s. */
  blank: boolean;
  /** When the browser received it (its clock, ms): "last seen" while the socket is down. */
  receivedAtMs: number;
}

/** A decoded `pressureMap_SAToFront` payload, before validation. */
export interface PressureMapMessage {
  deviceId?: unknown;
  seq?: unknown;
  deviceTimeMs?: unknown;
  hubTimeMs?: unknown;
  rows?: unknown;
  cols?: unknown;
  bytesPerCell?: unknown;
  cells?: unknown;
  presence?: unknown;
  blank?: unknown;
}

type Listener = (frame: LiveFrame | undefined) => void;

interface Entry {
  frame?: LiveFrame;
  timer?: ReturnType<typeof setTimeout>;
  listeners: Set<Listener>;
}

const num = (v: unknown, dflt = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);

function toBytes(v: unknown): Uint8Array | null {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (Array.isArray(v)) return Uint8Array.from(v as number[]);
  return null;
}

export class LiveMapStore {
  private entries = new Map<string, Entry>();
  /** Whether frames can arrive (the socket is open or opening). */
  private live = true;

  private entry(deviceId: string): Entry {
    let e = this.entries.get(deviceId);
    if (!e) {
      e = { listeners: new Set() };
      this.entries.set(deviceId, e);
    }
    return e;
  }

  get(deviceId: string): LiveFrame | undefined {
    return this.entries.get(deviceId)?.frame;
  }

  /** Validates and stores one map message. Returns false (and logs) when it is malformed. */
  write(msg: PressureMapMessage): boolean {
    const deviceId = typeof msg.deviceId === 'string' ? msg.deviceId : null;
    if (!deviceId) {
      console.error('invalid pressure map: no deviceId');
      return false;
    }
    const blank = msg.blank === true;
    // The frame carries its own shape; the map is drawn at exactly these rows × cols.
    const rows = num(msg.rows);
    const cols = num(msg.cols);
    const bytesPerCell = msg.bytesPerCell === 2 ? 2 : 1;
    const cells = toBytes(msg.cells) ?? new Uint8Array(0);
    const shapeOk = Number.isInteger(rows) && Number.isInteger(cols) && rows > 0 && cols > 0 && (msg.bytesPerCell === 1 || msg.bytesPerCell === 2);
    if (!blank && (!shapeOk || cells.length !== rows * cols * bytesPerCell)) {
      console.error('invalid pressure map', { deviceId, rows, cols, bytesPerCell: msg.bytesPerCell, length: cells.length });
      return false;
    }
    const frame: LiveFrame = {
      deviceId,
      seq: num(msg.seq),
      deviceTimeMs: num(msg.deviceTimeMs),
      hubTimeMs: num(msg.hubTimeMs),
      rows,
      cols,
      bytesPerCell,
      cells: blank ? new Uint8Array(0) : cells,
      presence: msg.presence === 'PRESENCE' ? 'PRESENCE' : 'ABSENCE',
      blank,
      receivedAtMs: Date.now(),
    };
    const e = this.entry(deviceId);
    e.frame = frame;
    this.armBlanking(deviceId, e);
    this.emit(e);
    return true;
  }

  /** The socket is open (true) or lost (false). Lost: every map keeps its last frame, with no
   * blanking (silence is the link's, not the mat's). Back: each map blanks if no new frame comes
   * within {@link BLANK_AFTER_MS}. */
  setLive(live: boolean): void {
    if (live === this.live) return;
    this.live = live;
    for (const [deviceId, e] of this.entries) this.armBlanking(deviceId, e);
  }

  private armBlanking(deviceId: string, e: Entry): void {
    if (e.timer) clearTimeout(e.timer);
    e.timer = this.live && e.frame && !e.frame.blank ? setTimeout(() => this.blankOut(deviceId), BLANK_AFTER_MS) : undefined;
  }

  /** Clears a device's map because no frame arrived for {@link BLANK_AFTER_MS}. */
  private blankOut(deviceId: string): void {
    const e = this.entries.get(deviceId);
    if (!e?.frame) return;
    e.timer = undefined;
    e.frame = { ...e.frame, cells: new Uint8Array(0), blank: true, presence: 'ABSENCE' };
    this.emit(e);
  }

  private emit(e: Entry): void {
    for (const l of [...e.listeners]) l(e.frame);
  }

  /** Calls `listener` on every new frame or blanking of the device. */
  subscribe(deviceId: string, listener: Listener): () => void {
    const e = this.entry(deviceId);
    e.listeners.add(listener);
    return () => {
      e.listeners.delete(listener);
    };
  }

  /** Stops all blanking timers and forgets every map (logout); subscribers stay subscribed. */
  clear(): void {
    for (const e of this.entries.values()) {
      if (e.timer) clearTimeout(e.timer);
      e.timer = undefined;
      e.frame = undefined;
      this.emit(e);
    }
  }
}
