import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { analysesVersionAtom } from '../../lib/clinicalContext';
import { companyVariantsAtom, NO_VARIANTS } from '../../lib/companyVariants';
import { ANA, renderWorkspace, SELECT_PATH, stubHub, USER_ID } from '../../test/clinicalTestKit';

const withPatient = () => stubHub({ [`GET ${SELECT_PATH}`]: () => ({ body: { patient: ANA, message: null } }) });
const withoutPatient = () => stubHub({ [`GET ${SELECT_PATH}`]: () => ({ body: { patient: null, message: 'No patient is currently selected.' } }) });

async function ready() {
  const r = await renderWorkspace();
  await screen.findByTestId('selected-patient');
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  return r;
}

/** Opens a capture's tutorial and closes it with "Start capture", then lets 50 ms pass. */
function startThroughTutorial(testId: string) {
  fireEvent.click(screen.getByTestId(testId));
  fireEvent.click(screen.getByTestId('tutorial-start'));
  act(() => vi.advanceTimersByTime(50));
}

const captureEvent = (phase: string, extra: Record<string, unknown> = {}) => ({ deviceId: 'pod1', userId: USER_ID, phase, ...extra });
const phase = () => screen.getByTestId('capture-status').getAttribute('data-phase');
const toasts = () => [...document.querySelectorAll('.toast span')].map((e) => e.textContent);

describe('captures (spec §4)', () => {
  it('the tutorial’s close starts the capture after 50 ms, with the selected patient', async () => {
    withPatient();
    const { socket } = await ready();
    fireEvent.click(screen.getByTestId('capture-static'));
    expect(screen.getByTestId('capture-tutorial')).toBeInTheDocument();
    expect(socket.startCapture).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('tutorial-start'));
    expect(screen.queryByTestId('capture-tutorial')).toBeNull();
    act(() => vi.advanceTimersByTime(49));
    expect(socket.startCapture).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(socket.startCapture).toHaveBeenCalledWith({ deviceId: 'pod1', analysisType: 'Static', seconds: undefined, patientId: 'p1' });
    expect(phase()).toBe('requested');
  });

  it('cancelling the tutorial starts nothing', async () => {
    withPatient();
    const { socket } = await ready();
    fireEvent.click(screen.getByTestId('capture-static'));
    fireEvent.click(within(screen.getByTestId('capture-tutorial')).getByRole('button', { name: 'Cancel' }));
    act(() => vi.advanceTimersByTime(1000));
    expect(socket.startCapture).not.toHaveBeenCalled();
  });

  it('without a selected patient: the patientSelected toast and nothing sent', async () => {
    withoutPatient();
    const { socket } = await renderWorkspace();
    await screen.findByTestId('no-patient');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    startThroughTutorial('capture-static');
    expect(socket.startCapture).not.toHaveBeenCalled();
    expect(toasts()).toContain('No patient is selected. Select a patient first.');
    expect(phase()).toBe('idle');
  });

  it.each([
    ['patientSelected', 'No patient is selected. Select a patient first.'],
    ['positionPatient', 'No pressure on the mat. Position the patient on the device and try again.'],
    ['connectDevice', 'The device is not connected. Connect it and try again.'],
    ['onGoing', 'Error: An analysis is already being captured.'],
    ['dynamicOngoing', 'A dynamic analysis is already running. Wait until it ends.'],
    ['fittingOngoing', 'A fitting analysis is already running. Wait until it ends.'],
    ['invalidDuration', 'This duration is not available for this analysis.'],
  ])('the hub’s refusal %s shows its toast and ends the request', async (error, text) => {
    withPatient();
    const { emit } = await ready();
    startThroughTutorial('capture-static');
    act(() => emit('error', { error, message: 'refused' }));
    expect(toasts()).toContain(text);
    expect(phase()).toBe('idle');
  });

  it('a static capture: toast at 2 s, loaded at 1 s, results when the hub says resultsDue', async () => {
    withPatient();
    const { emit, store } = await ready();
    startThroughTutorial('capture-static');
    act(() => emit('capture', captureEvent('announced', { kind: 'Static', toast: 'capturingStatic' })));
    expect(phase()).toBe('capturing');
    act(() => vi.advanceTimersByTime(999));
    expect(phase()).toBe('capturing');
    act(() => vi.advanceTimersByTime(1));
    expect(phase()).toBe('processing');
    act(() => vi.advanceTimersByTime(999));
    expect(toasts()).not.toContain('Capturing the static analysis…');
    act(() => vi.advanceTimersByTime(1));
    expect(toasts()).toContain('Capturing the static analysis…');
    const before = store.get(analysesVersionAtom);
    act(() => emit('capture', captureEvent('resultsDue', { kind: 'Static' })));
    expect(phase()).toBe('ready');
    expect(store.get(analysesVersionAtom)).toBe(before + 1);
    expect(toasts()).toContain('The analysis results are ready.');
  });

  it('a 15 s dynamic capture: seconds sent, toast at 4 s, start-streaming hidden until duration + 0.2 s', async () => {
    withPatient();
    const { emit, socket } = await ready();
    expect(screen.getByTestId('streaming-button')).toHaveTextContent('Start live');
    fireEvent.change(screen.getByLabelText('Duration', { selector: '#capture-dynamic-seconds' }), { target: { value: '15' } });
    startThroughTutorial('capture-dynamic');
    expect(socket.startCapture).toHaveBeenCalledWith({ deviceId: 'pod1', analysisType: 'Dynamic', seconds: 15, patientId: 'p1' });
    expect(screen.queryByTestId('streaming-button')).toBeNull();
    act(() => emit('capture', captureEvent('announced', { kind: 'Dynamic', toast: 'capturingDynamic' })));
    act(() => vi.advanceTimersByTime(3999));
    expect(toasts()).not.toContain('Capturing the dynamic analysis…');
    act(() => vi.advanceTimersByTime(1));
    expect(toasts()).toContain('Capturing the dynamic analysis…');
    expect(screen.getByTestId('capture-status')).toHaveTextContent('Dynamic analysis: capturing, 12 s left');
    act(() => vi.advanceTimersByTime(15_200 - 4000 - 1));
    expect(screen.queryByTestId('streaming-button')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(phase()).toBe('processing');
    expect(screen.getByTestId('streaming-button')).toHaveTextContent('Start live');
  });

  it('a second start while a dynamic capture runs is refused with dynamicOngoing, nothing sent', async () => {
    withPatient();
    const { emit, socket } = await ready();
    startThroughTutorial('capture-dynamic');
    act(() => emit('capture', captureEvent('announced', { kind: 'Dynamic' })));
    startThroughTutorial('capture-static');
    expect(socket.startCapture).toHaveBeenCalledTimes(1);
    expect(toasts()).toContain('A dynamic analysis is already running. Wait until it ends.');
  });

  it('fitting offers 120 s; a second start during it gives fittingOngoing', async () => {
    withPatient();
    const { socket } = await ready();
    const select = screen.getByLabelText('Duration', { selector: '#capture-fitting-seconds' });
    expect([...select.querySelectorAll('option')].map((o) => o.value)).toEqual(['15', '30', '45', '60', '120']);
    expect([...screen.getByLabelText('Duration', { selector: '#capture-dynamic-seconds' }).querySelectorAll('option')].map((o) => o.value)).toEqual(['15', '30', '45', '60']);
    fireEvent.change(select, { target: { value: '120' } });
    startThroughTutorial('capture-fitting');
    expect(socket.startCapture).toHaveBeenCalledWith(expect.objectContaining({ analysisType: 'Fitting', seconds: 120 }));
    startThroughTutorial('capture-fitting');
    expect(toasts()).toContain('A fitting analysis is already running. Wait until it ends.');
  });

  it('the balance tutorial offers the foot-balance positions; a tandem stand is a balance capture announced as FSBT', async () => {
    withPatient();
    const { emit, socket } = await ready();
    fireEvent.click(screen.getByTestId('capture-balance'));
    for (const name of ['Balance (both feet)', 'Side-by-side', 'Tandem stand', 'Semi-tandem (Insep)', 'One foot']) {
      expect(screen.getByRole('radio', { name: new RegExp(name.replace(/[()]/g, '\\$&')) })).toBeInTheDocument();
    }
    fireEvent.click(screen.getByRole('radio', { name: /Tandem stand/ }));
    fireEvent.click(screen.getByTestId('tutorial-start'));
    act(() => vi.advanceTimersByTime(50));
    expect(socket.startCapture).toHaveBeenCalledWith(expect.objectContaining({ analysisType: 'Balance' }));
    act(() => emit('capture', captureEvent('announced', { kind: 'Balance', toast: 'capturingEquilibrium' })));
    act(() => vi.advanceTimersByTime(4000));
    expect(toasts()).toContain('Capturing the foot balance test…');
  });

  it('a capture that got no frame fails with its toast; other users’ and devices’ events are ignored', async () => {
    withPatient();
    const { emit } = await ready();
    startThroughTutorial('capture-static');
    act(() => emit('capture', captureEvent('announced', { kind: 'Static' })));
    act(() => emit('capture', { ...captureEvent('resultsDue'), userId: 'someone-else' }));
    act(() => emit('capture', { ...captureEvent('resultsDue'), deviceId: 'other' }));
    expect(phase()).toBe('capturing');
    act(() => emit('capture', captureEvent('failed', { kind: 'Static' })));
    expect(phase()).toBe('failed');
    expect(toasts()).toContain('No pressure data arrived during the capture. Check the device and try again.');
    act(() => vi.advanceTimersByTime(2000));
    expect(toasts()).not.toContain('Capturing the static analysis…');
  });

  it('captures this page did not request (series, remote through REST, opened late) are followed too', async () => {
    withPatient();
    const { emit, store } = await ready();
    act(() => emit('capture', captureEvent('resultsDue', { kind: 'Dynamic' })));
    expect(phase()).toBe('ready');
    expect(screen.getByTestId('capture-status')).toHaveTextContent('Dynamic analysis: results ready');
    expect(store.get(analysesVersionAtom)).toBe(1);
    act(() => emit('capture', captureEvent('announced', { kind: 'Static' })));
    expect(phase()).toBe('capturing');
    expect(screen.queryByTestId('streaming-button')).toBeNull();
    act(() => vi.advanceTimersByTime(2000));
    expect(toasts()).toContain('Capturing the static analysis…');
    expect(screen.getByTestId('streaming-button')).toBeInTheDocument();
  });

  it('no answer from the hub within 10 s ends the request', async () => {
    withPatient();
    await ready();
    startThroughTutorial('capture-static');
    act(() => vi.advanceTimersByTime(9_999));
    expect(phase()).toBe('requested');
    act(() => vi.advanceTimersByTime(1));
    expect(phase()).toBe('idle');
    expect(toasts()).toContain('The hub did not answer. Check the connection and try again.');
  });

  it('remote activation sends ActivateRemote with the selected patient, without a tutorial', async () => {
    withPatient();
    const { socket, emit } = await ready();
    fireEvent.click(screen.getByTestId('capture-remote'));
    expect(screen.queryByTestId('capture-tutorial')).toBeNull();
    expect(socket.activateRemote).toHaveBeenCalledWith('pod1', 'p1');
    act(() => emit('capture', captureEvent('announced', { kind: 'Dynamic' })));
    expect(screen.getByTestId('capture-status')).toHaveTextContent('Remote activation: capturing, 16 s left');
  });

  it('the 24 h series button exists only for the fitness variant and sends 3,600,000 ms × 24', async () => {
    withPatient();
    const { socket, store, emit } = await ready();
    expect(screen.queryByTestId('capture-series')).toBeNull();
    act(() => store.set(companyVariantsAtom, { ...NO_VARIANTS, fitness: true }));
    fireEvent.click(screen.getByTestId('capture-series'));
    expect(socket.startAnalysisTimer).toHaveBeenCalledWith('pod1', 3_600_000, 24, 'p1');
    expect(screen.getByTestId('capture-series')).toBeDisabled();
    act(() => emit('capture', captureEvent('seriesRepetitionRefused', { repetition: 1, refusal: 'positionPatient' })));
    expect(toasts()).toContain('No pressure on the mat. Position the patient on the device and try again.');
    act(() => emit('capture', captureEvent('seriesFinished')));
    expect(screen.getByTestId('capture-series')).toBeEnabled();
  });

  it('offers only the captures of the device type', async () => {
    withPatient();
    await renderWorkspace({ capabilities: { captures: ['Static'], pdfReports: false } });
    expect(screen.getByTestId('capture-static')).toBeInTheDocument();
    for (const id of ['capture-dynamic', 'capture-balance', 'capture-fitting', 'capture-remote', 'capture-series']) expect(screen.queryByTestId(id)).toBeNull();
  });
});
