/**
 * Progress on stderr: a bar redrawn in place on a terminal, otherwise one plain line per 10 % (logs and
 * pipes should not fill with carriage returns).
 */
export interface Progress {
  /** `counted`: show "done/total" beside the percentage (rows; not for the share of a file read). */
  start(label: string, total: number, counted?: boolean): void;
  update(done: number): void;
  done(): void;
}

export const silentProgress: Progress = { start() {}, update() {}, done() {} };

export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true;
  let label = '';
  let total = 0;
  let lastShown = -1;
  let lastDraw = 0;
  let showCount = true;
  const draw = (done: number) => {
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const percent = Math.floor(share * 100);
    if (tty) {
      const now = Date.now();
      if (percent === lastShown && now - lastDraw < 200) return;
      lastDraw = now;
      const width = 30;
      const filled = Math.round(share * width);
      const count = showCount ? ` ${done.toLocaleString('en')}/${total.toLocaleString('en')}` : '';
      stream.write(
        `\r${label.padEnd(8)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)}%${count}\x1b[K`,
      );
    } else {
      const step = Math.floor(percent / 10) * 10;
      if (step === lastShown) return;
      stream.write(`${label}: ${step}%\n`);
      lastShown = step;
      return;
    }
    lastShown = percent;
  };
  return {
    start(newLabel, newTotal, counted = true) {
      label = newLabel;
      total = newTotal;
      showCount = counted;
      lastShown = -1;
      draw(0);
    },
    update(done) {
      draw(done);
    },
    done() {
      if (tty) {
        lastShown = -1;
        lastDraw = 0;
        draw(total);
        stream.write('\n');
      } else {
        draw(total);
      }
    },
  };
}
