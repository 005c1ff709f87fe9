import { createApp } from './app.js';
import { loadConfig } from './config.js';

const config = loadConfig(process.env);
const app = await createApp(config);

let closing = false;
const shutdown = (signal: string): void => {
  if (closing) return;
  closing = true;
  // New connections are refused at once, requests on kept-alive ones get 503; running requests
  // (a transfer in progress) may finish within the grace period, then the process exits anyway.
  app.log.info({ signal, graceSeconds: config.shutdownGraceSeconds }, 'shutting down');
  setTimeout(() => {
    app.log.warn('grace period over: exiting with requests still running');
    process.exit(1);
  }, config.shutdownGraceSeconds * 1000).unref();
  app.close().then(
    () => process.exit(0),
    (err: unknown) => {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => {
  shutdown('SIGINT');
});
process.on('SIGTERM', () => {
  shutdown('SIGTERM');
});

await app.listen({ port: config.port, host: config.host });
app.log.info(`Coffer is running at ${config.publicUrl}`);
