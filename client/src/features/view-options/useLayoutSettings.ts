//! Loads the user's view options when a device page opens and saves every later change (spec §4
//! "Settings: auto-save"), a short while after the last change so a dragged slider is one save.
//! A pending save is sent at once when the page closes or the browser leaves it (reload).

import { useAtom, useStore } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { viewOptionsAtom, type ViewOptions } from '../../lib/heatmap/viewOptions';
import { notify } from '../../lib/notifications';
import { currentUserId, loadLayoutSettings, saveLayoutSettings } from './layoutSettings';

/** Wait after the last change before saving. */
export const SAVE_DELAY_MS = 400;

export type LayoutState = 'loading' | 'ready' | 'pending' | 'saving' | 'saved' | 'error';

export function useLayoutSettings(): { options: ViewOptions; setOptions: (o: ViewOptions) => void; state: LayoutState } {
  const store = useStore();
  const [options, setOptions] = useAtom(viewOptionsAtom);
  const [state, setState] = useState<LayoutState>('loading');
  const savedJson = useRef<string | null>(null);
  const pending = useRef<(() => void) | null>(null);

  useEffect(() => {
    const userId = currentUserId();
    let cancelled = false;
    setState('loading');
    savedJson.current = null;
    if (!userId) {
      setState('error');
      return;
    }
    loadLayoutSettings(userId)
      .then((loaded) => {
        if (cancelled) return;
        savedJson.current = JSON.stringify(loaded);
        setOptions(loaded);
        setState('ready');
      })
      .catch((err) => {
        if (cancelled) return;
        console.error('layout settings could not be loaded', err);
        notify(store, { kind: 'error', key: 'view.loadFailed' });
        // Keep what is shown; the user's next change is still saved.
        savedJson.current = JSON.stringify(store.get(viewOptionsAtom));
        setState('ready');
      });
    return () => {
      cancelled = true;
    };
  }, [store, setOptions]);

  useEffect(() => {
    const userId = currentUserId();
    if (!userId || savedJson.current === null) return;
    const json = JSON.stringify(options);
    if (json === savedJson.current) return;
    const save = () => {
      pending.current = null;
      setState('saving');
      saveLayoutSettings(userId, options)
        .then(() => {
          savedJson.current = json;
          setState('saved');
        })
        .catch((err) => {
          console.error('layout settings could not be saved', err);
          notify(store, { kind: 'error', key: 'view.saveFailed' });
          setState('error');
        });
    };
    pending.current = save;
    setState('pending');
    const timer = setTimeout(save, SAVE_DELAY_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [options, store]);

  // Leaving the page, or the browser leaving it, sends the change that was still waiting.
  useEffect(() => {
    const flush = () => pending.current?.();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);

  return { options, setOptions, state };
}
