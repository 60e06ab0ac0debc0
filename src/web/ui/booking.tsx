import { type ReactNode, useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { BodyOf, Endpoint, ResponseOf } from '../../contract/endpoint.ts';
import { useActionKey } from '../api/action-key.ts';
import { api } from '../api/api.ts';
import type { CallOptions } from '../api/client.ts';
import { messageOf } from '../api/message.ts';
import { holdKeysUntil } from '../scan/router.ts';
import { afterNextPaint } from './after-paint.ts';
import { useBanner } from './banner.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { SuccessFlash } from './success-flash.tsx';

interface BookingOptions<E extends Endpoint> {
  /**
   * The success view's text; a function of the answer where the server's message says more (Umbuchung), or
   * null where the screen the booking leads to shows it (Kartonagen in the packing flow).
   */
  done?: string | ((answer: ResponseOf<E>) => string | null);
  /** The call's path parameters, where its path names what the body books (Kartonagen: the note's id). */
  params?: (body: BodyOf<E>) => CallOptions<E>['params'];
  /** How long the success view shows (SuccessFlash's 1 s unless said). */
  durationMs?: number;
  /** What the screen resets once it is booked. */
  onBooked?: (answer: ResponseOf<E>) => void;
  /**
   * What a refusal does beyond its message in the banner (Kommissionierung lets go of a note that another
   * handheld took over).
   */
  onRefused?: (error: unknown) => void;
}

export interface Booking<E extends Endpoint> {
  /** Being sent: the screen's button waits, its scan fields do not. */
  readonly busy: boolean;
  /** The booking the worker is asked to confirm — the screen shows its ConfirmDialog while there is one. */
  readonly asking: BodyOf<E> | null;
  /**
   * Asks before booking: in the page, not with the browser's confirm(), whose question a scanner's Enter would
   * answer. The body is fixed here, so what is booked is what the dialog says.
   */
  ask(body: BodyOf<E>): void;
  /** The dialog's yes: books what was asked. */
  confirm(): void;
  /** The dialog's no. */
  cancel(): void;
  /** Books at once (Nachschub: its four scanned proofs are the confirmation). */
  book(body: BodyOf<E>): Promise<void>;
  /** The success view while it shows: the screen's first child. */
  readonly flash: ReactNode;
}

/**
 * What every booking screen does with its booking (Inventur, Artikel umlagern, Umbuchung, Nachschub, WMS-Retoure,
 * Wareneingang, Kommissionierung):
 * ask, then send it under the form's action key (`api/action-key.ts`: a retry after an unknown outcome is
 * applied once), busy meanwhile, never twice at once; then the success view and `onBooked`, or the server's
 * refusal in the banner with the form as it was. A 401 keeps the form too ('Scan wurde nicht gespeichert …').
 */
export function useBooking<E extends Endpoint>(call: E, options: BookingOptions<E> = {}): Booking<E> {
  const banner = useBanner();
  const actionKey = useActionKey();
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const [asking, setAsking] = useState<BodyOf<E> | null>(null);
  const [doneText, setDoneText] = useState<string | null>(null);
  const endFlash = useCallback(() => setDoneText(null), []);
  // The answer comes renders later: it goes to the screen's latest callbacks, not those of the render that sent.
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });

  function book(body: BodyOf<E>): Promise<void> {
    if (sending.current) return Promise.resolve();
    const sent = send(body);
    // The next scan, come while the booking is on its way, waits for the form the answer leads to (the
    // next article's field, not the amount of the one being booked).
    holdKeysUntil(sent, afterNextPaint);
    return sent;
  }

  async function send(body: BodyOf<E>) {
    sending.current = true;
    setBusy(true);
    try {
      const answer = await actionKey.send(body, (idempotencyKey) =>
        api.call(call, { params: latest.current.params?.(body), body, idempotencyKey, on401: 'scan' }),
      );
      const { done, onBooked } = latest.current;
      if (done !== undefined) setDoneText(typeof done === 'string' ? done : done(answer));
      onBooked?.(answer);
    } catch (error) {
      banner.showError(messageOf(error));
      latest.current.onRefused?.(error);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  }

  return {
    busy,
    asking,
    ask: setAsking,
    confirm: () => {
      setAsking(null);
      if (asking !== null) void book(asking);
    },
    cancel: () => setAsking(null),
    book,
    flash: doneText !== null && (
      <SuccessFlash text={doneText} durationMs={options.durationMs} onDone={endFlash} />
    ),
  };
}

/**
 * The question before a booking, while the booking asks it: `ConfirmDialog` with the booking's yes and no, its
 * body what will be booked (`children` gets the body that was asked, so it says exactly what the yes books).
 */
export function BookingConfirm<E extends Endpoint>({
  booking,
  title,
  confirmLabel,
  cancelLabel,
  children,
}: {
  booking: Booking<E>;
  title: string;
  confirmLabel: string;
  cancelLabel: string;
  children: (asked: BodyOf<E>) => ReactNode;
}) {
  if (booking.asking === null) return null;
  return (
    <ConfirmDialog
      title={title}
      confirmLabel={confirmLabel}
      cancelLabel={cancelLabel}
      onConfirm={booking.confirm}
      onCancel={booking.cancel}
    >
      {children(booking.asking)}
    </ConfirmDialog>
  );
}
