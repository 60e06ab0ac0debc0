import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguageSource } from '../../contract/i18n/current.ts';
import {
  bookingTime,
  calendarDate,
  clockTime,
  clockTimeSeconds,
  dateAndTime,
  dayAndTime,
  germanDate,
  germanNumber,
  hourOfDay,
  shortDateAndTime,
  sinceToday,
} from './format.ts';

// In the local time zone, whatever the machine's: what a reader sees is the browser's time.
const moment = new Date(2026, 10, 24, 9, 5, 2);
const iso = moment.toISOString();

describe('how the app writes a moment', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the time of day, with or without its seconds', () => {
    expect(clockTime(iso)).toBe('09:05');
    expect(clockTimeSeconds(iso)).toBe('09:05:02');
  });

  it('writes day and time, with the year where the page needs it', () => {
    expect(dayAndTime(iso)).toBe('24.11., 09:05');
    expect(dateAndTime(iso)).toBe('24.11.2026, 09:05');
    expect(bookingTime(iso)).toBe('24.11.2026 09:05:02');
  });

  it("writes a scan kept on the device by the device's own clock (ms)", () => {
    expect(shortDateAndTime(moment.getTime())).toBe('24.11.26, 09:05:02');
  });

  it("writes today's moment by its time and an earlier one with its day", () => {
    vi.useFakeTimers({ now: new Date(2026, 10, 24, 18, 0) });
    expect(sinceToday(iso)).toBe('09:05');
    vi.setSystemTime(new Date(2026, 10, 25, 8, 0));
    expect(sinceToday(iso)).toBe('24.11., 09:05');
  });

  it('writes no moment as a dash, or as the page says', () => {
    expect(sinceToday(null)).toBe('–');
    expect(dayAndTime(null)).toBe('–');
    expect(dateAndTime(null)).toBe('–');
    expect(dateAndTime(null, 'nie')).toBe('nie');
  });

  it('writes an hour of the day', () => {
    expect(hourOfDay(7)).toBe('07:00');
    expect(hourOfDay(14)).toBe('14:00');
  });
});

describe('how the app writes a date and a number', () => {
  it('shows a date of the contract in German format', () => {
    expect(germanDate('2027-12-31')).toBe('31.12.2027');
    expect(germanDate(null)).toBe('–');
  });

  it('shows a date of the contract to read, the same day in every time zone', () => {
    expect(calendarDate('2027-12-31')).toBe('31.12.2027');
    expect(calendarDate(null)).toBe('–');
  });

  it('groups thousands with a dot', () => {
    expect(germanNumber(1000)).toBe('1.000');
    expect(germanNumber(12)).toBe('12');
  });
});

describe("in the locale of the worker's language (issue 43)", () => {
  afterEach(() => setLanguageSource(() => 'de'));

  it('writes moments, dates and the outbox time as Polish and English readers do; German stays as it was', () => {
    setLanguageSource(() => 'pl');
    expect(shortDateAndTime(moment.getTime())).toBe('24.11.2026, 09:05:02'); // German: 24.11.26
    setLanguageSource(() => 'tr');
    expect(dayAndTime(iso)).toBe('24/11 09:05');
    setLanguageSource(() => 'en');
    expect(calendarDate('2027-12-31')).toBe('31/12/2027');
    expect(dateAndTime(iso)).toBe('24/11/2026, 09:05');
    expect(shortDateAndTime(moment.getTime())).toBe('24/11/2026, 09:05:02');
    // The German form is kept where the worker edits a date (an MHD read back by mhd.ts).
    expect(germanDate('2027-12-31')).toBe('31.12.2027');
    setLanguageSource(() => 'de');
    expect(dateAndTime(iso)).toBe('24.11.2026, 09:05');
  });
});
