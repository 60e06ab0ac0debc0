import { captureBatch } from './batch.ts';
import { captureContainer } from './container.ts';
import type { Endpoint } from './endpoint.ts';
import type { OfflineCall } from './outbox.ts';
import { paketausgang } from './paketausgang.ts';
import { retourenerfassung } from './retoure.ts';
import { captureTransporter } from './transporter.ts';

/**
 * The descriptor of each call that may wait in the outbox (outbox.ts, decision 11), by its name. Apart from
 * outbox.ts because it needs the schemas (zod): the web app loads it only when it sends from the outbox.
 */
export const outboxEndpoints: Record<OfflineCall, Endpoint> = {
  paketausgang,
  retourenerfassung,
  captureBatch,
  captureContainer,
  captureTransporter,
};
