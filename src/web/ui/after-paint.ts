/**
 * Runs `callback` in a task right after the next paint. State updates already made are rendered by React in
 * a task queued before the first message below (its scheduler posts tasks on a MessageChannel too, and
 * tasks run in order); the frame callback runs right before that render is painted, and the task posted
 * from it runs right after the paint — by then the screen's effects (the focus moving on) have run too.
 */
export function afterNextPaint(callback: () => void): void {
  const channel = new MessageChannel();
  let painted = false;
  channel.port1.onmessage = () => {
    if (painted) {
      channel.port1.close();
      callback();
      return;
    }
    requestAnimationFrame(() => {
      painted = true;
      channel.port2.postMessage(null);
    });
  };
  channel.port2.postMessage(null);
}
