import { buildServer, SERVER_BUNDLE } from '../src/server/build-server.ts';

/** `npm run build` and `npm start` run this first: src/server → dist/server/main.mjs (decision 5). */
try {
  const started = performance.now();
  await buildServer();
  console.error(`Server built into ${SERVER_BUNDLE} in ${Math.round(performance.now() - started)} ms.`);
} catch (error) {
  console.error(`Server build failed: ${(error as Error).message}`);
  process.exit(1);
}
