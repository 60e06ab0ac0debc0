/** When the steps towards a paint ran (`performance.now()`): read by the scan-to-feedback measure. */
export interface PaintTimes {
  /** The first task after the ones queued before (React's render of the state set so far) ran. */
  rendered: number;
  /** The frame callback ran: the frame that paints it began. */
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
