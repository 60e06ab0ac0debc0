import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RenderedText } from '../../contract/i18n/current.ts';
import { setLanguageSource, setRenderLog } from '../../contract/i18n/current.ts';
import {
  type CatalogueLanguage,
  isLanguage,
  type Language,
  languageCodes,
  PSEUDO_LANGUAGE,
} from '../../contract/i18n/languages.ts';
import { loadCatalogue } from '../../contract/i18n/load.ts';

/**
 * The language of the request being answered (issue 43, decision 35): every text a catalogue renders during
 * it is in that language, with no change where a message is made. The caller's own once the login is known
 * (`answerIn`, from caller.ts), before that the device's choice in `X-Language` (an unknown one: German). The
 * texts rendered are noted by their exact words, so an error body gets their stable `code` and `params`.
 */
interface RequestTexts {
  language: CatalogueLanguage;
  rendered: Map<string, RenderedText>;
}

const current = new AsyncLocalStorage<RequestTexts>();

/**
 * The header a handheld names its device's language in before anyone is logged in — or a developer asks for
 * the pseudo-language (`qps`, decision 35) in, which then holds for the whole request, a login's too.
 */
export const LANGUAGE_HEADER = 'x-language';

/** Loads every catalogue and answers each request in its caller's language (call once, before any route). */
export async function answerInCallersLanguage(app: FastifyInstance): Promise<void> {
  const all: CatalogueLanguage[] = [...languageCodes, PSEUDO_LANGUAGE];
  await Promise.all(all.map(loadCatalogue));
  setLanguageSource(() => current.getStore()?.language ?? 'de');
  setRenderLog({
    note: (text, rendered) => current.getStore()?.rendered.set(text, rendered),
    find: (text) => current.getStore()?.rendered.get(text),
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const asked = request.headers[LANGUAGE_HEADER];
    const language = asked === PSEUDO_LANGUAGE || isLanguage(asked) ? asked : 'de';
    current.run({ language, rendered: new Map() }, done);
  });
  app.addHook('preSerialization', async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) =>
    withCode(payload, reply.statusCode),
  );
}

/**
 * From here on, this request is answered in the logged-in caller's language — unless it asked for the
 * pseudo-language: a developer's test run reads every answer in it (only the words change).
 */
export function answerIn(language: Language): void {
  const texts = current.getStore();
  if (texts && texts.language !== PSEUDO_LANGUAGE) texts.language = language;
}

/**
 * An error body with its stable `code` and `params` beside the message: the catalogue's key path the message
 * was rendered from in this request, or, for a message no catalogue made, `http.<status>` and no params.
 * A body that has its code already (a refusal replayed from the exactly-once store) keeps it.
 */
export function withCode(payload: unknown, status: number): unknown {
  if (status < 400 || payload === null || typeof payload !== 'object') return payload;
  const body = payload as { success?: unknown; message?: unknown; code?: unknown };
  if (body.success !== false || typeof body.message !== 'string' || body.code !== undefined) return payload;
  const rendered = current.getStore()?.rendered.get(body.message);
  return { ...body, code: rendered?.code ?? `http.${status}`, params: rendered?.params ?? [] };
}
