import type { CatalogueLanguage } from './languages.ts';

/**
 * Which language a text is read in right now — pluggable, as the two sides know it differently: the web app
 * from its store (the worker logged in, else the device's choice), the server from the request being answered
 * (an AsyncLocalStorage, src/server/http/language.ts). German until a side plugs in its own.
 */
let source: () => CatalogueLanguage = () => 'de';

export function currentLanguage(): CatalogueLanguage {
  return source();
}

export function setLanguageSource(read: () => CatalogueLanguage): void {
  source = read;
}

/** A text as a catalogue rendered it: its stable code (the key path, `lookup.locationNotFound`) and arguments. */
export interface RenderedText {
  code: string;
  params: readonly unknown[];
}

/**
 * Where rendered texts are noted: the server keeps them per request (src/server/http/language.ts), so an error
 * body can carry a stable `code` and `params` beside its message. The web app keeps none.
 */
export interface RenderLog {
  note(text: string, rendered: RenderedText): void;
  find(text: string): RenderedText | undefined;
}
let log: RenderLog | undefined;

export function setRenderLog(next: RenderLog | undefined): void {
  log = next;
}

export function rendered(code: string, params: readonly unknown[], text: string): void {
  log?.note(text, { code, params });
}

/** The code and arguments a text was rendered with in this request, if a catalogue rendered it. */
export function findRendered(text: string): RenderedText | undefined {
  return log?.find(text);
}
