import './styles/bootstrap.scss';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { APP_CONFIG_PATH, appConfigSchema } from '../contract/app-config.js';
import { App } from './app.js';

async function start(): Promise<void> {
  const root = createRoot(document.getElementById('root') as HTMLElement);
  try {
    const response = await fetch(APP_CONFIG_PATH);
    const config = appConfigSchema.parse(await response.json());
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    );
  } catch {
    root.render(
      <main className="container py-5">
        <h1>Leftover could not start</h1>
        <p>The server did not answer with its sign-in settings. Reload the page to try again.</p>
      </main>,
    );
  }
}

void start();
