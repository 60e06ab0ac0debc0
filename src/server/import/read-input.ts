import { inputErrorMessage } from '../../contract/input-errors.ts';
import { runImport } from '../../contract/leitstand/import.ts';
import { texts } from '../../contract/texts.ts';
import { type CsvEncoding, decodeCsv } from './encoding.ts';
import type { KindName } from './kinds/index.ts';
import { type FileRead, readCsvText } from './read.ts';

/** An import's input as it came: an upload's JSON body, or a file's bytes. */
export interface WorkerInput {
  kind: KindName;
  form: 'upload' | 'file';
  bytes: Uint8Array;
}

/** An input read whole: its file name and encoding and what reading found, or why it cannot be read. */
export type InputRead =
  | { type: 'read'; fileName: string; encoding: CsvEncoding; read: FileRead }
  /** The upload's body is not what the call takes (German message, 400). */
  | { type: 'invalid'; message: string }
  /** Neither UTF-8 nor Windows-1252 (English advice, as the CLI prints it). */
  | { type: 'undecodable'; reason: string };

/**
 * Reads an import's input — an upload's JSON body (file name, base64 content) or a file's bytes — into
 * rows: the body checked, the content decoded, the CSV read (read.ts). Pure CPU work, run in the worker
 * (worker.ts), or where it is for an upload small enough (source.ts, `inlineSource`).
 */
export function readInput(input: WorkerInput, onShare?: (share: number) => void): InputRead {
  // Each stage in a function of its own, so that what the last one held is garbage before the next one
  // allocates: the upload's parsed body (a 20 MB string), then its bytes. Held across the CSV's reading,
  // they made the largest allowed file overrun the worker's heap (UPLOAD_WORKER_HEAP_MB).
  const file = openInput(input);
  if ('type' in file) return file;
  const decoded = decodeCsv(file.bytes);
  if (!decoded.ok) return { type: 'undecodable', reason: decoded.reason };
  return readDecoded(input.kind, file.fileName, decoded, onShare);
}

function openInput(input: WorkerInput): { fileName: string; bytes: Uint8Array } | InputRead {
  if (input.form === 'file') return { fileName: '', bytes: input.bytes };
  let body: unknown;
  try {
    body = JSON.parse(
      Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength).toString('utf8'),
    );
  } catch {
    return { type: 'invalid', message: texts.errors.invalidJson };
  }
  const parsed = runImport.body.safeParse(body, { reportInput: true });
  if (!parsed.success)
    return { type: 'invalid', message: inputErrorMessage(runImport.name, parsed.error.issues[0]) };
  return { fileName: parsed.data.fileName, bytes: Buffer.from(parsed.data.content, 'base64') };
}

function readDecoded(
  kind: KindName,
  fileName: string,
  decoded: { text: string; encoding: CsvEncoding },
  onShare?: (share: number) => void,
): InputRead {
  const { text, encoding } = decoded;
  return { type: 'read', fileName, encoding, read: readCsvText(kind, text, onShare) };
}
