import type { Language } from './languages.ts';

/**
 * Which language a text is read in right now — pluggable, as the two sides know it differently: the web app
 * from its store (the worker logged in, else the device's choice), the server from the request being answered
 * (an AsyncLocalStorage, src/server/http/language.ts). German until a side plugs in its own.
 */
let source: () => Language = () => 'de';

export function currentLanguage(): Language {
  return source();
}

export function setLanguageSource(read: () => Language): void {
  source = read;
}

/**
 * Told of every text a catalogue renders (its key path, e.g. `texts.lookup.articleNotFound`, and its arguments):
 * the server keeps them per request, so an error body can carry a stable `code` and `params` beside the message.
 */
export type RenderObserver = (code: string, params: readonly unknown[], text: string) => void;
let observer: RenderObserver | undefined;

export function observeRendering(observe: RenderObserver | undefined): void {
  observer = observe;
}

export function rendered(code: string, params: readonly unknown[], text: string): void {
  observer?.(code, params, text);
}
