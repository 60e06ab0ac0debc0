/** When the steps towards a paint ran (`performance.now()`): read by the scan-to-feedback measure. */
export interface PaintTimes {
  /** The render of the state set so far was committed (or the first task after it ran). */
  rendered: number;
  /** The frame that paints it began (its frame callback ran). */
  frame: number;
}

/**
 * Runs `callback` in a task right after the next paint. State updates already made are rendered by React in
 * a task queued before the first message below (its scheduler posts tasks on a MessageChannel too, and
 * tasks run in order); the frame callback runs right before that render is painted, and the task posted
 * from it runs right after the paint — by then the screen's effects (the focus moving on) have run too.
 */
export function afterNextPaint(callback: (times: PaintTimes) => void): void {
  const channel = new MessageChannel();
  let rendered = Number.NaN;
  let frame = Number.NaN;
  channel.port1.onmessage = () => {
    if (!Number.isNaN(frame)) {
      channel.port1.close();
      callback({ rendered, frame });
      return;
    }
    rendered = performance.now();
    requestAnimationFrame(() => {
      frame = performance.now();
      channel.port2.postMessage(null);
    });
  };
  channel.port2.postMessage(null);
}

/**
 * As `afterNextPaint`, for a caller that can tell when the render it waits for is committed (`committedAt`:
 * its time, or null while not yet). The browser often paints a render before the first message above runs (a
 * frame that is due goes before waiting tasks): then that frame is the paint, and the callback runs in the
 * task after it — one frame earlier than `afterNextPaint` would, which waits for the frame after its message.
 */
export function afterRenderPainted(
  committedAt: () => number | null,
  callback: (times: PaintTimes) => void,
): void {
  const channel = new MessageChannel();
  /** When the first message ran: the render queued before it is committed. */
  let messaged = Number.NaN;
  let frame = Number.NaN;
  let done = false;
  channel.port1.onmessage = () => {
    if (Number.isNaN(messaged)) messaged = performance.now();
    // A task after the frame that painted: the paint is done.
    if (done || Number.isNaN(frame)) return;
    done = true;
    channel.port1.close();
    // The render's task ended when the first message ran, if that was before the frame; else (the frame came
    // first) it is known by its commit.
    callback({ rendered: messaged < frame ? messaged : (committedAt() ?? messaged), frame });
  };
  const onFrame = () => {
    // A frame before the render was committed does not paint it: the next one then.
    if (Number.isNaN(messaged) && committedAt() === null) {
      requestAnimationFrame(onFrame);
      return;
    }
    frame = performance.now();
    channel.port2.postMessage(null);
  };
  channel.port2.postMessage(null);
  requestAnimationFrame(onFrame);
}
