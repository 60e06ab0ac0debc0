import { z } from 'zod';
import { endpoint, scanText, scanTextOrEmpty, successMessage, text } from './endpoint.ts';
import { scanLimits } from './limits.ts';

/** Batch capture: a batch number has at most six characters. */
export const captureBatch = endpoint({
  name: 'captureBatch',
  method: 'PUT',
  path: '/api/batcherfassung',
  // Longer scans reach the server, which answers 'Achtung - Batch hat nur sechs Ziffern!'.
  body: z.object({ batch: scanText(scanLimits.batch) }),
  response: successMessage,
});

/** The batch a delivery note belongs to, in `data.lieferschein`. */
export const batchByDeliveryNote = endpoint({
  name: 'batchByDeliveryNote',
  method: 'GET',
  path: '/api/batch/getBatchIdByLieferscheinBelegnr/:belegnr',
  params: z.object({ belegnr: scanText() }),
  response: z.object({ data: z.object({ lieferschein: z.string() }) }),
});

/** Records which employee (card scan in `qrcode`) handled a batch. */
export const assignBatch = endpoint({
  name: 'assignBatch',
  method: 'PUT',
  path: '/api/batch',
  body: z.object({
    lieferschein: scanText(scanLimits.batch),
    qrcode: text(scanLimits.card, { min: 1, trim: false }),
  }),
  response: successMessage,
});

export const captureContainer = endpoint({
  name: 'captureContainer',
  method: 'PUT',
  path: '/api/containererfassung',
  body: z.object({ container: scanText(scanLimits.container), batch: scanText(scanLimits.batch) }),
  response: successMessage,
});

export const captureTransporter = endpoint({
  name: 'captureTransporter',
  method: 'PUT',
  path: '/api/transporterfassung',
  // Empty texts reach the server, which names the first missing field (kennzeichen, plombe, container).
  body: z.object({
    kennzeichen: scanTextOrEmpty(20),
    container: scanTextOrEmpty(100),
    plombe: scanTextOrEmpty(100),
    value: z.number().int().min(0).max(100).multipleOf(5),
  }),
  response: successMessage,
});

/** Outgoing parcel: answers the carrier (image name, or 'no-image'). */
export const paketausgang = endpoint({
  name: 'paketausgang',
  method: 'PUT',
  path: '/api/paketausgang',
  body: z.object({ tracking: scanText(scanLimits.tracking) }),
  response: z.object({ carrier: z.string() }),
});

/** Outgoing parcel checked against the delivery note just packed. */
export const paketausgangCompare = endpoint({
  name: 'paketausgangCompare',
  method: 'PUT',
  path: '/api/paketausgangcompare',
  body: z.object({ tracking: scanText(scanLimits.tracking), belegnr: scanText() }),
  response: z.object({ carrier: z.string() }),
});

/** Return parcel by tracking number. */
export const retourenerfassung = endpoint({
  name: 'retourenerfassung',
  method: 'PUT',
  path: '/api/retourenerfassung',
  body: z.object({ tracking: scanText(scanLimits.tracking) }),
  response: successMessage,
});
