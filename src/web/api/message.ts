import { coreTexts as texts } from '../../contract/texts-core.ts';

/**
 * What to show for anything a call threw, on the handheld and in the Leitstand alike: the German text its
 * error carries (the server's refusal, or the client's 'Netzwerkfehler …', 'Systemfehler …'). Something that
 * is not an Error says the network text rather than its own words: whatever it is, it is not for staff.
 * A module of its own, beside the client rather than in it: the screens need it, the first download does not.
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : texts.errors.network;
}
