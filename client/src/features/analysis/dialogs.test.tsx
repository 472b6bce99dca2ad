import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'jotai';
import { DEFAULT_VIEW_OPTIONS, viewOptionsAtom } from '../../lib/heatmap/viewOptions';
import { STORAGE } from '../../lib/storageKeys';
import { PdfLayoutModal } from './PdfLayoutModal';
import { RAW_DIALOG_WIDTH_PX, RawDataDialog } from './RawDataDialog';
import { renderAnalysis, settle } from './testing';

beforeEach(() => {
  localStorage.setItem(STORAGE.token, 'tok');
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
});

function stubDownload(respond: (url: string, init?: RequestInit) => Response) {
  const calls: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : null });
      return respond(String(input), init);
    }),
  );
  const saved = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  const names = () => saved.mock.instances.map((a) => (a as unknown as HTMLAnchorElement).download);
  return { calls, names };
}

const pdf = (name: string) =>
  new Response(new Blob(['%PDF-1.7']), { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${name}"` } });

/** The user's clock the modal sends: the browser's zone and its offset on the record's day. */
const clock = { utcOffsetMinutes: expect.any(Number), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone };

describe('PDF layout modal', () => {
  it('a type without the real-scale print (a bed) offers only the report', async () => {
    await renderAnalysis(<PdfLayoutModal id="a1" notes="" creationSeconds={1_795_305_600} realScale={false} onClose={() => {}} />);
    expect(screen.getByTestId('pdf-download')).toBeInTheDocument();
    expect(screen.queryByTestId('pdf-real-scale')).toBeNull();
    expect(screen.queryByTestId('pdf-paper-A3')).toBeNull();
  });

  it('without notes: main page on and locked, notes off and locked; the request lists the chosen widgets', async () => {
    const hub = stubDownload(() => pdf('ana-lopez_static_2026-11-22_1531.pdf'));
    await renderAnalysis(<PdfLayoutModal id="a1" notes="" creationSeconds={1_795_305_600} realScale onClose={() => {}} />);
    expect(screen.getByTestId('pdf-widget-mainPage')).toBeChecked();
    expect(screen.getByTestId('pdf-widget-mainPage')).toBeDisabled();
    expect(screen.getByTestId('pdf-widget-notes')).not.toBeChecked();
    expect(screen.getByTestId('pdf-widget-notes')).toBeDisabled();
    fireEvent.click(screen.getByTestId('pdf-widget-mainPage'));
    fireEvent.click(screen.getByTestId('pdf-widget-histogram'));
    fireEvent.change(screen.getByTestId('pdf-language'), { target: { value: 'ja' } });
    fireEvent.click(screen.getByTestId('pdf-download'));
    await waitFor(() => expect(hub.names()).toEqual(['ana-lopez_static_2026-11-22_1531.pdf']));
    expect(hub.calls[0]).toEqual({
      url: '/api/downloadAnalysisPDF/a1/0',
      body: { layoutOptions: { widgets: ['mainPage', 'pressureMap', 'results'], language: 'ja', palette: 'pressure', ...clock } },
    });
  });

  it('with notes they can be printed; A4 warns about shoe sizes; real scale named by the hub; the user\'s colours', async () => {
    const hub = stubDownload(() => pdf('ana-lopez_static_real-scale-a4_2026-11-22_1531.pdf'));
    const store = createStore();
    store.set(viewOptionsAtom, { ...DEFAULT_VIEW_OPTIONS, mapColorIndex: 2, manualScale: true, manualScaleValue: 300 });
    await renderAnalysis(<PdfLayoutModal id="a1" notes="heel pain" creationSeconds={1_795_305_600} realScale onClose={() => {}} />, store);
    expect(screen.getByTestId('pdf-widget-notes')).toBeChecked();
    expect(screen.getByTestId('pdf-widget-notes')).toBeEnabled();
    expect(screen.getByTestId('pdf-actual-size')).toBeInTheDocument();
    expect(screen.queryByTestId('pdf-a4-warning')).toBeNull();
    fireEvent.click(screen.getByTestId('pdf-paper-A4'));
    expect(screen.getByTestId('pdf-a4-warning')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('pdf-real-scale'));
    await waitFor(() => expect(hub.names()).toEqual(['ana-lopez_static_real-scale-a4_2026-11-22_1531.pdf']));
    expect(hub.calls[0]).toEqual({ url: '/api/downloadRealScalePDF/a1', body: { layout: 'A4', language: 'en', palette: 'hot', ...clock } });
    fireEvent.click(screen.getByTestId('pdf-download'));
    await waitFor(() => expect(hub.calls).toHaveLength(2));
    expect(hub.calls[1].body).toEqual({ layoutOptions: { widgets: ['mainPage', 'pressureMap', 'results', 'histogram', 'notes'], language: 'en', palette: 'hot', manualScale: 300, ...clock } });
  });
});

describe('raw-data dialog', () => {
  it('600 px wide; processed and unprocessed exports named by the hub, loading meanwhile, dataDownloaded', async () => {
    let release: () => void = () => {};
    const hub = stubDownload((url) => {
      const kind = url.endsWith('unprocessed') ? 'unprocessed' : 'processed';
      const res = new Response('{}', { status: 200, headers: { 'Content-Disposition': `attachment; filename="static_${kind}_analysis_2026-11-22.json"` } });
      return kind === 'processed' ? (new Promise<Response>((r) => (release = () => r(res))) as unknown as Response) : res;
    });
    const { toasts } = await renderAnalysis(<RawDataDialog id="a1" onClose={() => {}} />);
    expect(RAW_DIALOG_WIDTH_PX).toBe(600);
    expect(screen.getByTestId('raw-dialog').style.width).toBe('min(600px, 95vw)');
    fireEvent.click(screen.getByTestId('raw-processed'));
    expect(await screen.findByTestId('raw-loading')).toBeInTheDocument();
    expect(screen.getByTestId('raw-unprocessed')).toBeDisabled();
    release();
    await waitFor(() => expect(screen.queryByTestId('raw-loading')).toBeNull());
    fireEvent.click(screen.getByTestId('raw-unprocessed'));
    await waitFor(() => expect(hub.names()).toEqual(['static_processed_analysis_2026-11-22.json', 'static_unprocessed_analysis_2026-11-22.json']));
    expect(hub.calls.map((c) => c.url)).toEqual(['/api/analysisExport/a1/processed', '/api/analysisExport/a1/unprocessed']);
    expect(toasts()).toEqual(['toastSuccessRaw.dataDownloaded', 'toastSuccessRaw.dataDownloaded']);
  });

  it.each([
    [400, 'toastErrorRaw.noAnalysisData', 'toastErrorRaw.noAnalysisData'],
    [500, 'internalError', 'toastErrorRaw.downloadError'],
  ])('a %i %s answer shows %s for 2.5 s', async (status, code, key) => {
    stubDownload(() => new Response(JSON.stringify({ error: code }), { status }));
    const { toasts } = await renderAnalysis(<RawDataDialog id="a1" onClose={() => {}} />);
    vi.useFakeTimers();
    fireEvent.click(screen.getByTestId('raw-processed'));
    await settle();
    expect(toasts()).toEqual([key]);
    await act(() => vi.advanceTimersByTimeAsync(2400));
    expect(toasts()).toEqual([key]);
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(toasts()).toEqual([]);
  });
});
