import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createStore } from 'jotai';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { analysesVersionAtom, selectedPatientAtom } from '../../lib/clinicalContext';
import { STORAGE } from '../../lib/storageKeys';
import { AnalysisArea } from './AnalysisArea';
import type { AnalysisRecord } from './record';
import { fakeMapRenderer, record, renderAnalysis, settle } from './testing';

const device = { _id: { $oid: 'd1' }, name: 'Plate', deviceType: 'Podology IoT' };

interface Hub {
  /** The analyses made on the page's device (its default history). */
  analyses: AnalysisRecord[];
  patientAnalyses: AnalysisRecord[];
  calls: string[];
  failNotes?: boolean;
  /** What the patient count says, when it differs from the page (a colleague deleted meanwhile). */
  patientCount?: number;
}

function pageOf(list: AnalysisRecord[], page: number) {
  return {
    analyses: list.slice((page - 1) * 10, page * 10),
    currentPageCount: Math.min(10, Math.max(0, list.length - (page - 1) * 10)),
    totalPages: Math.max(1, Math.ceil(list.length / 10)),
    totalAnalysis: list.length,
    totalSize: 12.5,
  };
}

/** A fetch standing in for the hub's analysis routes. */
function stubHub(hub: Hub) {
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    hub.calls.push(`${method} ${url}`);
    let m = /^\/api\/deviceAnalysisPage\/u1\/d1\/all\/(\d+)$/.exec(url);
    if (m) return json(pageOf(hub.analyses, Number(m[1])));
    m = /^\/api\/podometryAnalysisPatient\/u1\/(\w+)\/all\/(\d+)$/.exec(url);
    if (m) return json(pageOf(m[1] === 'p1' ? hub.patientAnalyses : [], Number(m[2])));
    if (url === '/api/podometryAnalysisCount/u1/all') return json({ totalAnalysis: hub.analyses.length, totalPages: 1, totalSize: 12.5 });
    m = /^\/api\/podometryAnalysisCountPatient\/u1\/(\w+)\/all$/.exec(url);
    if (m) return json({ totalAnalysis: m[1] === 'p1' ? (hub.patientCount ?? hub.patientAnalyses.length) : 0, totalPages: 1, totalSize: 1 });
    if (url === '/api/podometry/patients/u1') return json([{ _id: { $oid: 'p1' }, name: 'Ana Ruiz' }]);
    m = /^\/api\/podometryAnalysis\/specific\/(\w+)$/.exec(url);
    if (m && method === 'DELETE') {
      hub.analyses = hub.analyses.filter((a) => a._id.$oid !== m![1]);
      return json({ deleted: m[1] });
    }
    if (m && method === 'PUT') {
      if (hub.failNotes) return json({ error: 'analysisNotes' }, 400);
      const notes = JSON.parse(String(init?.body)).notes as string;
      hub.analyses = hub.analyses.map((a) => (a._id.$oid === m![1] ? { ...a, notes } : a));
      return json(hub.analyses.find((a) => a._id.$oid === m![1]));
    }
    return json({ error: 'notFound' }, 404);
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

const many = (n: number) => Array.from({ length: n }, (_, i) => record({ id: `a${i + 1}` }));

beforeEach(() => {
  localStorage.setItem(STORAGE.token, 'tok');
  localStorage.setItem(STORAGE.userId, 'u1');
});

async function renderArea(hub: Hub, store = createStore(), pdfReports = true) {
  stubHub(hub);
  const r = await renderAnalysis(<AnalysisArea device={device} pdfReports={pdfReports} createRenderer={fakeMapRenderer} />, store);
  await screen.findAllByTestId('history-card').catch(() => undefined);
  return r;
}

describe('history', () => {
  it('pages: page X of Y, analyses A to B of N, disabled ends, storage used', async () => {
    await renderArea({ analyses: many(23), patientAnalyses: [], calls: [] });
    expect(screen.getAllByTestId('history-card')).toHaveLength(10);
    expect(screen.getByTestId('page-of')).toHaveTextContent('page 1 of 3');
    expect(screen.getByTestId('page-range')).toHaveTextContent('analyses 1 to 10 of 23');
    expect(screen.getByTestId('page-previous')).toBeDisabled();
    expect(screen.getByTestId('storage-used')).toHaveTextContent('Storage used: 12.5 MB / 100MB');
    expect(screen.getAllByTestId('history-patient')[0]).toHaveTextContent('Ana Ruiz');
    fireEvent.click(screen.getByTestId('page-next'));
    await screen.findByText('page 2 of 3');
    fireEvent.click(screen.getByTestId('page-next'));
    await screen.findByText('analyses 21 to 23 of 23');
    // The range is the page asked for; its cards come with the page's answer.
    await waitFor(() => expect(screen.getAllByTestId('history-card')).toHaveLength(3));
    expect(screen.getByTestId('page-next')).toBeDisabled();
    expect(screen.getByTestId('page-previous')).toBeEnabled();
  });

  it('empty messages for the company and for the selected patient', async () => {
    const store = createStore();
    store.set(selectedPatientAtom, { id: 'p1', name: 'Ana' });
    await renderArea({ analyses: [], patientAnalyses: [], calls: [] }, store);
    expect(await screen.findByTestId('history-empty')).toHaveTextContent('No analysis has been performed yet');
    expect(screen.queryByTestId('history-filter')).toBeNull(); // no data for the patient
    expect(screen.queryByTestId('pagination')).toBeNull();
  });

  it('the filter needs a selected patient with data; it and a patient change reset to page 1', async () => {
    const store = createStore();
    const hub: Hub = { analyses: many(25), patientAnalyses: many(2), calls: [] };
    await renderArea(hub, store);
    expect(screen.queryByTestId('history-filter')).toBeNull();
    act(() => store.set(selectedPatientAtom, { id: 'p1', name: 'Ana' }));
    await waitFor(() => expect(hub.calls).toContain('GET /api/podometryAnalysisCountPatient/u1/p1/all'));
    const filter = await screen.findByTestId('history-filter');
    fireEvent.click(screen.getByTestId('page-next'));
    await screen.findByText('page 2 of 3');
    fireEvent.click(filter);
    await screen.findByText('analyses 1 to 2 of 2');
    expect(hub.calls).toContain('GET /api/podometryAnalysisPatient/u1/p1/all/1');
    // Unfiltered, the page lists its own device's analyses, never the whole company's.
    expect(hub.calls).toContain('GET /api/deviceAnalysisPage/u1/d1/all/1');
    expect(hub.calls.some((c) => c.includes('/api/podometryAnalysisPage/'))).toBe(false);
    fireEvent.click(filter);
    await screen.findByText('page 1 of 3');
    fireEvent.click(screen.getByTestId('page-next'));
    await screen.findByText('page 2 of 3');
    act(() => store.set(selectedPatientAtom, { id: 'p2', name: 'Bo' }));
    await screen.findByText('page 1 of 3');
    await waitFor(() => expect(screen.queryByTestId('history-filter')).toBeNull()); // p2 has no analyses
    hub.patientAnalyses = [];
    hub.patientCount = 1;
    act(() => store.set(selectedPatientAtom, { id: 'p1', name: 'Ana' }));
    await screen.findByTestId('history-filter');
    fireEvent.click(screen.getByTestId('history-filter'));
    expect(await screen.findByTestId('history-empty')).toHaveTextContent('No analysis has been performed yet for this patient');
    // Another patient: unfiltered again, the company's history.
    act(() => store.set(selectedPatientAtom, { id: 'p2', name: 'Bo' }));
    await screen.findByText('analyses 1 to 10 of 25');
  });

  it('refetches when the analyses version changes', async () => {
    const store = createStore();
    const hub: Hub = { analyses: many(1), patientAnalyses: [], calls: [] };
    await renderArea(hub, store);
    hub.analyses = many(2);
    act(() => store.set(analysesVersionAtom, (v) => v + 1));
    await waitFor(() => expect(screen.getAllByTestId('history-card')).toHaveLength(2));
  });

  it('delete asks first, toasts analysisSuccess for 1.5 s and bumps the version', async () => {
    const hub: Hub = { analyses: many(3), patientAnalyses: [], calls: [] };
    const { store, toasts } = await renderArea(hub);
    fireEvent.click(within(screen.getAllByTestId('history-card')[0]).getByTestId('history-delete'));
    expect(hub.calls.some((c) => c.startsWith('DELETE'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('delete-modal')).toBeNull();
    fireEvent.click(within(screen.getAllByTestId('history-card')[0]).getByTestId('history-delete'));
    vi.useFakeTimers();
    fireEvent.click(screen.getByTestId('delete-confirm'));
    await settle();
    expect(toasts()).toContain('analysisSuccess');
    expect(store.get(analysesVersionAtom)).toBe(1);
    expect(screen.getAllByTestId('history-card')).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(1400));
    expect(toasts()).toContain('analysisSuccess');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(toasts()).not.toContain('analysisSuccess');
  });

  it('notes: save at 1100, refused over it, notesUpdated for 2.5 s, analysisNotes on failure', async () => {
    const hub: Hub = { analyses: many(1), patientAnalyses: [], calls: [] };
    const { toasts } = await renderArea(hub);
    fireEvent.click(screen.getByTestId('history-notes-edit'));
    const text = screen.getByTestId('notes-text');
    expect(text).toHaveAttribute('rows', '13');
    fireEvent.change(text, { target: { value: 'a'.repeat(1101) } });
    expect(screen.getByTestId('notes-save')).toBeDisabled();
    expect(screen.getByTestId('notes-count')).toHaveTextContent('1101 / 1100');
    fireEvent.change(text, { target: { value: 'a'.repeat(1100) } });
    expect(screen.getByTestId('notes-save')).toBeEnabled();
    vi.useFakeTimers();
    fireEvent.click(screen.getByTestId('notes-save'));
    await settle();
    expect(toasts()).toContain('notesUpdated');
    expect(hub.analyses[0].notes).toHaveLength(1100);
    await act(() => vi.advanceTimersByTimeAsync(2400));
    expect(toasts()).toContain('notesUpdated');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(toasts()).not.toContain('notesUpdated');
    vi.useRealTimers();
    hub.failNotes = true;
    fireEvent.click(await screen.findByTestId('history-notes-edit'));
    fireEvent.click(screen.getByTestId('notes-save'));
    await waitFor(() => expect(toasts()).toContain('analysisNotes'));
    expect(screen.getByTestId('notes-modal')).toBeInTheDocument();
  });

  it('PDF icon only with pdfReports', async () => {
    const { unmount } = await renderArea({ analyses: many(1), patientAnalyses: [], calls: [] }, createStore(), false);
    expect(screen.queryByTestId('history-pdf')).toBeNull();
    unmount();
    await renderArea({ analyses: many(1), patientAnalyses: [], calls: [] }, createStore(), true);
    expect(screen.getByTestId('history-pdf')).toBeInTheDocument();
  });
});

describe('previews', () => {
  it('opening one closes the other; × closes; leaving the page resets them', async () => {
    const hub: Hub = { analyses: many(2), patientAnalyses: [], calls: [] };
    const { unmount } = await renderArea(hub);
    const [first, second] = screen.getAllByTestId('history-card');
    fireEvent.click(within(first).getByTestId('history-open'));
    expect(screen.getAllByTestId('result-preview')).toHaveLength(1);
    expect(screen.getByTestId('result-preview')).toHaveAttribute('data-analysis-id', 'a1');
    fireEvent.click(within(second).getByTestId('history-open'));
    expect(screen.getAllByTestId('result-preview')).toHaveLength(1);
    expect(screen.getByTestId('result-preview')).toHaveAttribute('data-analysis-id', 'a2');
    fireEvent.click(screen.getByTestId('result-close'));
    expect(screen.queryByTestId('result-preview')).toBeNull();
    fireEvent.click(within(second).getByTestId('history-open'));
    unmount();
    await renderArea(hub);
    expect(screen.queryByTestId('result-preview')).toBeNull();
  });
});
