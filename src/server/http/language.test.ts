import { describe, expect, it } from 'vitest';
import { withCode } from './language.ts';

describe('an error body’s code', () => {
  it('is the code of its status for a message no catalogue made, with no params', () => {
    expect(withCode({ success: false, message: 'Benutzername schon vergeben.' }, 409)).toEqual({
      success: false,
      message: 'Benutzername schon vergeben.',
      code: 'http.409',
      params: [],
    });
  });

  it('stays as it is on a body that has one (a replayed refusal) and is not added to an answer that is no error', () => {
    const replayed = {
      success: false,
      message: 'Nie znaleziono lokalizacji.',
      code: 'lookup.unknownLocation',
      params: [],
    };
    expect(withCode(replayed, 404)).toBe(replayed);
    const answer = { success: true, message: 'Gebucht.' };
    expect(withCode(answer, 200)).toBe(answer);
  });
});
