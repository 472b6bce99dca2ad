//! Entry point: builds the store, loads translations, and mounts the app.

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/routes';
import { createAppStore } from './lib/devicesStore';
import { initI18n } from './lib/i18n';
import { LiveMapStore } from './lib/liveMaps';
import { bindSessionStore } from './lib/session';
import './styles.css';

async function main() {
  const store = createAppStore();
  bindSessionStore(store);
  const i18n = await initI18n();
  const liveMaps = new LiveMapStore();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing');
  createRoot(root).render(
    <StrictMode>
      <AppProviders store={store} i18n={i18n} liveMaps={liveMaps}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  );
}

void main();
