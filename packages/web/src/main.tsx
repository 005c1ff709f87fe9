import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dropzone/styles.css';
import './app/accessibility.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { getAppSession } from './session/app-session';
import { analyticsConsent } from './lib/analytics';

const container = document.getElementById('root');
if (container === null) throw new Error('The #root element is missing from index.html');

// Start loading the sign-in settings and the stored user while the first screen's code loads.
getAppSession()
  .auth.ready()
  .catch((error: unknown) => {
    console.warn('The sign-in service is not reachable', error);
  });

// Off unless the server publishes a PostHog key and the person agreed; never blocks the app.
analyticsConsent.load().catch(() => undefined);

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
