import { decode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { createAppStore } from './devicesStore';
import { LiveMapStore } from './liveMaps';
import { SocketClient } from './socket';

/** Records what the client sends once authenticated. */
class RecordingSocket {
  static last: RecordingSocket;
  readyState = 0;
  binaryType = 'blob';
  sent: Array<{ event: string; data: Record<string, unknown> }> = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    RecordingSocket.last = this;
  }
  send(data: Uint8Array) {
    this.sent.push(decode(data) as { event: string; data: Record<string, unknown> });
  }
  close() {}
}

function connected() {
  const client = new SocketClient({
    store: createAppStore(),
    liveMaps: new LiveMapStore(),
    getToken: () => 'tok',
    url: 'ws://hub.test/ws',
    WebSocketImpl: RecordingSocket as unknown as typeof WebSocket,
  });
  client.connect();
  const ws = RecordingSocket.last;
  ws.readyState = 1;
  ws.onopen?.();
  const json = new TextEncoder().encode(JSON.stringify({ event: 'authenticated', data: {} }));
  ws.onmessage?.({ data: new TextDecoder().decode(json) });
  return { client, ws };
}

describe('capture commands (docs/browser-protocol.md)', () => {
  it('startCapture leaves out absent fields: the hub refuses a nil `seconds`', () => {
    const { client, ws } = connected();
    client.startCapture({ deviceId: 'd1', analysisType: 'Static', seconds: undefined, patientId: 'p1' });
    const sent = ws.sent.find((m) => m.event === 'startCapture');
    expect(sent?.data).toEqual({ deviceId: 'd1', analysisType: 'Static', patientId: 'p1' });
    expect(Object.keys(sent?.data ?? {})).not.toContain('seconds');
  });

  it('ActivateRemote and startAnalysisTimer carry the protocol’s fields', () => {
    const { client, ws } = connected();
    client.activateRemote('d1', 'p1');
    client.startAnalysisTimer('d1', 3_600_000, 24, 'p1');
    expect(ws.sent.find((m) => m.event === 'ActivateRemote')?.data).toEqual({ deviceId: 'd1', action: 'startDynamicCapture', patientId: 'p1' });
    expect(ws.sent.find((m) => m.event === 'startAnalysisTimer')?.data).toEqual({ deviceId: 'd1', period: 3_600_000, count: 24, patientId: 'p1' });
  });
});
