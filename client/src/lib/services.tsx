//! React context for the app's long-lived services: the socket client and the live-map store.
//! Features reach them through `useServices()` so tests can pass fakes.

import { createContext, useContext } from 'react';
import type { LiveMapStore } from './liveMaps';
import type { CaptureCommand } from './socket';

/** What the features need from the socket (the real `SocketClient` satisfies it). */
export interface SocketApi {
  joinCompany(): void;
  joinUser(deviceId: string): void;
  leaveUser(deviceId: string): void;
  startStreaming(deviceId: string, seconds: number): void;
  requestStreamingRemaining(deviceId: string): void;
  startCapture(request: CaptureCommand): void;
  activateRemote(deviceId: string, patientId?: string): void;
  startAnalysisTimer(deviceId: string, period: number, count: number, patientId?: string): void;
  onEvent(listener: (env: { event: string; data?: unknown }) => void): () => void;
}

export interface Services {
  socket: SocketApi | null;
  liveMaps: LiveMapStore;
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('ServicesContext missing');
  return s;
}
