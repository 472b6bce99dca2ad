//! WebSocket client for the hub's browser protocol (docs/browser-protocol.md): binary MessagePack
//! `{event, data}` messages, `authenticate` first, subscriptions re-sent after every reconnect.
//! A dropped socket (its hub died behind the balancer, issue 25) is reopened with backoff to the
//! same address, where the balancer picks a live hub; meanwhile the status is `reconnecting`.
//! Decoding happens here in plain TypeScript; results go straight into the jotai store (device
//! status) and the live-map store (frames), never through React state.

import { decode, encode } from '@msgpack/msgpack';
import { handleAlarmOn, type AlarmOnData } from './alarms';
import type { DeviceConfDto } from './api';
import { applyDeviceConf, socketLostAtMsAtom, socketStatusAtom, type AppStore, type SocketStatus } from './devicesStore';
import type { LiveMapStore, PressureMapMessage } from './liveMaps';

export interface SocketEnvelope {
  event: string;
  data?: unknown;
}

export interface SocketErrorData {
  error: string;
  message?: string;
}

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export interface SocketClientOptions {
  store: AppStore;
  liveMaps: LiveMapStore;
  getToken: () => string | null;
  /** Called when the hub rejects the token (error `unauthorized` or close code 4401). */
  onUnauthorized?: () => void;
  url?: string;
  WebSocketImpl?: typeof WebSocket;
  backoff?: Partial<BackoffOptions>;
  /** Random source for the backoff jitter; tests pass a constant. */
  random?: () => number;
}

/** Close codes of the protocol. */
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_SLOW_CONSUMER = 4008;

export function defaultSocketUrl(): string {
  const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${window.location.host}/ws`;
}

/** Decodes one WebSocket message; binary is MessagePack, text is accepted as JSON. */
export function decodeEnvelope(data: unknown): SocketEnvelope | null {
  let value: unknown;
  try {
    if (data instanceof ArrayBuffer) value = decode(new Uint8Array(data));
    else if (ArrayBuffer.isView(data)) value = decode(data as Uint8Array);
    else if (typeof data === 'string') value = JSON.parse(data);
    else return null;
  } catch (err) {
    console.error('undecodable socket message', err);
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || typeof (value as SocketEnvelope).event !== 'string') {
    // The protocol wants a map with named fields; a positional array means the sender serialised
    // a struct without field names.
    console.error('socket message is not a {event, data} map', value);
    return null;
  }
  return value as SocketEnvelope;
}

export function encodeEnvelope(event: string, data: unknown): Uint8Array {
  return encode({ event, data });
}

/** The `startCapture` command; `seconds` for Dynamic (15–60) and Fitting (also 120). */
export interface CaptureCommand {
  deviceId: string;
  analysisType: 'Static' | 'Dynamic' | 'Fitting' | 'Balance';
  seconds?: number;
  patientId?: string;
}

type EventListener = (envelope: SocketEnvelope) => void;

export class SocketClient {
  private readonly opts: SocketClientOptions;
  private readonly backoff: BackoffOptions;
  private ws: WebSocket | null = null;
  private authenticated = false;
  private stopped = true;
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private companyJoined = false;
  /** Live-map subscriptions with a reference count, so two views of one device share one join. */
  private readonly users = new Map<string, number>();
  /** One-shot commands (startStreaming) waiting for the socket to be authenticated. */
  private pending: SocketEnvelope[] = [];
  private readonly listeners = new Set<EventListener>();

  constructor(opts: SocketClientOptions) {
    this.opts = opts;
    this.backoff = { initialMs: 500, maxMs: 15000, ...opts.backoff };
  }

  get isAuthenticated(): boolean {
    return this.authenticated;
  }

  /** Opens the socket (and keeps it open, reconnecting with backoff, until {@link close}). */
  connect(): void {
    this.stopped = false;
    this.open();
  }

  /** Closes for good: no reconnect, subscriptions forgotten. */
  close(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.companyJoined = false;
    this.users.clear();
    this.pending = [];
    const ws = this.ws;
    this.ws = null;
    this.authenticated = false;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close(1000);
      } catch {
        // already closed
      }
    }
    this.setStatus('idle');
  }

  /** Subscribes to every device status of the company (kept across reconnects). */
  joinCompany(): void {
    if (this.companyJoined) return;
    this.companyJoined = true;
    if (this.authenticated) this.send('joinCompany', {});
  }

  /** Subscribes to a device's live maps (kept across reconnects until {@link leaveUser}). */
  joinUser(deviceId: string): void {
    const n = this.users.get(deviceId) ?? 0;
    this.users.set(deviceId, n + 1);
    if (n === 0 && this.authenticated) this.send('joinUser', { deviceId });
  }

  leaveUser(deviceId: string): void {
    const n = this.users.get(deviceId) ?? 0;
    if (n <= 0) return;
    if (n > 1) {
      this.users.set(deviceId, n - 1);
      return;
    }
    this.users.delete(deviceId);
    if (this.authenticated) this.send('leaveUser', { deviceId });
  }

  /** Asks the device to stream for `seconds` (0 stops); queued while the socket is down. */
  startStreaming(deviceId: string, seconds: number): void {
    this.command('startStreaming', { deviceId, seconds });
  }

  /** Asks how many seconds of the device's live stream remain; answered with `streamingRemaining`
   * (queued while the socket is down, like {@link startStreaming}). */
  requestStreamingRemaining(deviceId: string): void {
    this.command('streamingRemaining', { deviceId });
  }

  /** Asks for one capture (browser protocol `startCapture`); refusals come back as `error` events. */
  startCapture(request: CaptureCommand): void {
    // MessagePack would send an absent field as nil, which the hub's `seconds: u32` refuses.
    const data = Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined));
    this.command('startCapture', data);
  }

  /** Remote activation: a 15 s dynamic capture (`ActivateRemote` with `startDynamicCapture`). */
  activateRemote(deviceId: string, patientId?: string): void {
    this.command('ActivateRemote', { deviceId, action: 'startDynamicCapture', patientId });
  }

  /** A static series: `count` captures every `period` ms (the 24 h analysis: 3,600,000 × 24). */
  startAnalysisTimer(deviceId: string, period: number, count: number, patientId?: string): void {
    this.command('startAnalysisTimer', { deviceId, period, count, patientId });
  }

  /** Listens to every decoded event (for errors such as `deviceNotFound`). */
  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private command(event: string, data: unknown): void {
    if (this.authenticated) this.send(event, data);
    else this.pending.push({ event, data });
  }

  private send(event: string, data: unknown): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1) return;
    ws.send(encodeEnvelope(event, data));
  }

  private open(): void {
    if (this.stopped) return;
    const token = this.opts.getToken();
    if (!token) {
      this.opts.onUnauthorized?.();
      return;
    }
    const Impl = this.opts.WebSocketImpl ?? WebSocket;
    this.authenticated = false;
    this.setStatus(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let ws: WebSocket;
    try {
      ws = new Impl(this.opts.url ?? defaultSocketUrl());
    } catch (err) {
      console.error('socket could not be opened', err);
      this.scheduleReconnect();
      return;
    }
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => {
      ws.send(encodeEnvelope('authenticate', { token }));
    };
    ws.onmessage = (ev: MessageEvent) => this.handleMessage(ev.data);
    ws.onerror = () => {
      // A close event always follows; reconnecting is handled there.
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.authenticated = false;
      console.warn(`socket disconnected (code ${ev.code})`);
      if (ev.code === CLOSE_UNAUTHORIZED) {
        this.setStatus('down');
        this.stopped = true;
        this.opts.onUnauthorized?.();
        return;
      }
      this.setStatus('reconnecting');
      this.scheduleReconnect();
    };
  }

  /** The socket's status, when the link was lost, and whether the live maps are live: while it
   * is not open they keep their last frame (marked stale by the pages) instead of blanking as if
   * the mats had gone quiet. */
  private setStatus(status: SocketStatus): void {
    const store = this.opts.store;
    const was = store.get(socketStatusAtom);
    if (status === 'open' || status === 'idle') store.set(socketLostAtMsAtom, null);
    else if (was === 'open') store.set(socketLostAtMsAtom, Date.now());
    store.set(socketStatusAtom, status);
    this.opts.liveMaps.setLive(status !== 'reconnecting' && status !== 'down');
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const base = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** this.attempt);
    const jitter = 0.5 + (this.opts.random ?? Math.random)() / 2;
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.open();
    }, Math.round(base * jitter));
  }

  /** Decodes one message and routes it; exposed for tests through the fake WebSocket. */
  private handleMessage(raw: unknown): void {
    const env = decodeEnvelope(raw);
    if (!env) return;
    switch (env.event) {
      case 'authenticated':
        this.onAuthenticated();
        break;
      case 'deviceConf':
        if (env.data && typeof env.data === 'object') applyDeviceConf(this.opts.store, env.data as DeviceConfDto);
        break;
      case 'alarmOn':
        if (env.data && typeof env.data === 'object') handleAlarmOn(this.opts.store, env.data as AlarmOnData);
        break;
      case 'pressureMap_SAToFront':
        if (env.data && typeof env.data === 'object') this.opts.liveMaps.write(env.data as PressureMapMessage);
        else console.error('invalid pressure map');
        break;
      case 'error': {
        const data = (env.data ?? {}) as SocketErrorData;
        if (data.error === 'unauthorized') {
          this.stopped = true;
          this.opts.onUnauthorized?.();
        } else {
          console.warn('socket error', data.error, data.message ?? '');
        }
        break;
      }
      default:
        break;
    }
    for (const l of [...this.listeners]) l(env);
  }

  private onAuthenticated(): void {
    this.authenticated = true;
    this.attempt = 0;
    this.setStatus('open');
    if (this.companyJoined) this.send('joinCompany', {});
    for (const deviceId of this.users.keys()) this.send('joinUser', { deviceId });
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) this.send(p.event, p.data);
  }
}
