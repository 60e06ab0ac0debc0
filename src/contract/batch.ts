import { z } from 'zod';
import { endpoint, scanText, successMessage, text } from './endpoint.ts';
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
