import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * What a scanner downloads, from the build's chunk manifest: gzip bytes of the JS and CSS the login screen
 * needs (the entry and its static imports; the main menu is part of it), of what loads while the worker
 * types the login (the auth contract with zod), of each screen's lazy chunk with the shared chunks it
 * pulls in beyond those, and of camera scanning (loaded only when a scan field's camera button is pressed).
 */
interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
}

export interface WebSizes {
  initialGzip: number;
  /** Loaded while the worker types the login (the auth contract and zod), before any screen. */
  atLoginGzip: number;
  screens: { name: string; ownGzip: number; withSharedGzip: number }[];
  /** The camera overlay, the barcode-detector polyfill and ZXing's .wasm. */
  cameraGzip: number;
}

export function measureWebSizes(webDir: string): WebSizes {
  const manifestPath = path.join(webDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestPath))
    throw new Error(`no build manifest at ${manifestPath}: run npm run build`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const gzipOf = (file: string) =>
    zlib.gzipSync(fs.readFileSync(path.join(webDir, file)), { level: 9 }).length;

  /** Every file a chunk needs loaded with it: itself, its CSS and its static imports, recursively. */
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) closure(imported, seen);
    return seen;
  };
  const filesOf = (keys: Set<string>) =>
    new Set([...keys].flatMap((k) => [manifest[k]?.file ?? '', ...(manifest[k]?.css ?? [])]).filter(Boolean));

  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entry) throw new Error('the build manifest has no entry');
  const initialKeys = closure(entry);
  const initialFiles = filesOf(initialKeys);
  const initialGzip = [...initialFiles].reduce((sum, f) => sum + gzipOf(f), 0);

  const authKey = Object.keys(manifest).find((k) => k.endsWith('contract/auth.ts'));
  const atLoginFiles = authKey ? [...filesOf(closure(authKey))].filter((f) => !initialFiles.has(f)) : [];
  const atLoginGzip = atLoginFiles.reduce((sum, f) => sum + gzipOf(f), 0);
  const loaded = new Set([...initialFiles, ...atLoginFiles]);

  const screens = Object.entries(manifest)
    .filter(([key, chunk]) => chunk.isDynamicEntry && key.endsWith('-screen.tsx'))
    .map(([key, chunk]) => {
      const extra = [...filesOf(closure(key))].filter((f) => !loaded.has(f));
      return {
        name: chunk.name ?? key,
        ownGzip: gzipOf(chunk.file),
        withSharedGzip: extra.reduce((sum, f) => sum + gzipOf(f), 0),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));

  // Camera scanning: its chunk and what it loads in turn (the polyfill, which fetches the .wasm).
  const cameraKeys = new Set<string>();
  const onDemand = (key: string) => {
    closure(key, cameraKeys);
    for (const next of manifest[key]?.dynamicImports ?? []) onDemand(next);
  };
  const cameraKey = Object.keys(manifest).find((k) => k.endsWith('ui/camera/camera-overlay.ts'));
  if (cameraKey) onDemand(cameraKey);
  const cameraFiles = [
    ...filesOf(cameraKeys),
    ...[...cameraKeys].flatMap((k) => manifest[k]?.assets ?? []),
  ].filter((f) => !loaded.has(f));
  const cameraGzip = cameraFiles.reduce((sum, f) => sum + gzipOf(f), 0);
  return { initialGzip, atLoginGzip, screens, cameraGzip };
}
