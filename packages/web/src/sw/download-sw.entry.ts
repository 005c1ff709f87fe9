import { installDownloadServiceWorker, type DownloadWorkerScope } from './download-service-worker';
import { installStreamDownloads } from './stream-download';

// The script the browser runs as `/download-sw.js` (a classic script, bundled by the Vite config).
// Page-made downloads (ZIPs) first: their fetch listener stops the event for their own URLs.
installStreamDownloads(self);
installDownloadServiceWorker(self as unknown as DownloadWorkerScope);
