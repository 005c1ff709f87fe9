import { installDownloadServiceWorker, type DownloadWorkerScope } from './download-service-worker';

// The script the browser runs as `/download-sw.js` (a classic script, bundled by the Vite config).
installDownloadServiceWorker(self as unknown as DownloadWorkerScope);
