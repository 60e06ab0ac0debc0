import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the page's main thread spent each scan's time, read from a Chromium trace (`npm run bench --
 * --profile` records one per field): the scans are the app's `scan-to-feedback` measures; each is cut at its
 * API request (sent, answered) into before the call, the call and after the answer, and the main thread's
 * time in each is totalled by kind (scripting, style, layout, paint, GC, other, idle) from the DevTools
 * timeline events, and JavaScript's share by function and by package from the sampling profiler (names and
 * places from the build's source maps). Means per scan, in ms.
 *
 *   npx tsx bench/trace.ts bench/results/trace-pglite-package-content.json
 */

interface TraceEvent {
  pid: number;
  tid: number;
  ts: number;
  ph: string;
  cat?: string;
  name: string;
  dur?: number;
  id?: string;
  id2?: { local?: string; global?: string };
  args?: Record<string, unknown> & { data?: Record<string, unknown> };
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

const MEASURE = 'scan-to-feedback';
const PHASE_NAMES = ['before the call', 'the call', 'after the answer'] as const;
const KINDS = ['scripting', 'style', 'layout', 'paint', 'GC', 'other', 'idle'] as const;
type Kind = (typeof KINDS)[number];

/** The DevTools timeline's event names by kind (the innermost event running on the main thread). */
function kindOf(name: string): Kind {
  if (name === '') return 'idle';
  if (/GC|Scavenge|MarkCompact|Sweep|Marking|Finaliz/i.test(name)) return 'GC';
  if (
    /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|StyleEngine|Document::UpdateStyle)/.test(name)
  )
    return 'style';
  if (
    /^(Layout|UpdateLayerTree|LayoutShift|LocalFrameView::RunPostLayoutIntersectionObserverSteps)/.test(name)
  )
    return 'layout';
  if (
    /^(PrePaint|Paint|PaintSetup|PaintImage|Layerize|UpdateLayer|Commit|CompositeLayers|Decode|Raster)/.test(
      name,
    )
  )
    return 'paint';
  if (
    /^(FunctionCall|EventDispatch|TimerFire|FireAnimationFrame|RunMicrotasks|EvaluateScript|HandlePostMessage|XHR|FireIdleCallback|v8|V8|js|Compile|ScriptEvaluate|BlinkScheduler_PerformMicrotaskCheckpoint)/.test(
      name,
    )
  )
    return 'scripting';
  return 'other';
}

export function summariseTrace(file: string, webDir: string, field = path.basename(file)): string {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : raw.traceEvents;

  // The scans: the app's measures (nestable async begin/end), on the page's main thread.
  const windows: { start: number; end: number; sent: number; answered: number }[] = [];
  const open = new Map<string, TraceEvent[]>();
  let main: { pid: number; tid: number } | null = null;
  for (const e of events) {
    if (e.name !== MEASURE || !e.cat?.includes('user_timing')) continue;
    main ??= { pid: e.pid, tid: e.tid };
    const key = `${e.id ?? e.id2?.local ?? e.id2?.global ?? ''}`;
    if (e.ph === 'b') open.set(key, [...(open.get(key) ?? []), e]);
    else if (e.ph === 'e') {
      const begin = open.get(key)?.shift();
      if (begin) windows.push({ start: begin.ts, end: e.ts, sent: Number.NaN, answered: Number.NaN });
    } else if (e.ph === 'X' && e.dur !== undefined)
      windows.push({ start: e.ts, end: e.ts + e.dur, sent: Number.NaN, answered: Number.NaN });
  }
  if (!main || windows.length === 0) return `${field}: no ${MEASURE} measures in ${file}`;
  const thread = main;
  windows.sort((a, b) => a.start - b.start);

  // Each scan's API request: sent, and its answer in the page (the last one, should it have been retried).
  const apiRequests = new Set<unknown>();
  const sends: { ts: number; id: unknown }[] = [];
  const answers: { ts: number; id: unknown }[] = [];
  for (const e of events) {
    const data = e.args?.data;
    if (!data) continue;
    if (e.name === 'ResourceSendRequest' && String(data.url ?? '').includes('/api/')) {
      apiRequests.add(data.requestId);
      sends.push({ ts: e.ts, id: data.requestId });
    } else if (e.name === 'ResourceFinish' || e.name === 'ResourceReceiveResponse')
      answers.push({ ts: e.ts, id: data.requestId });
  }
  for (const w of windows) {
    const sent = sends.filter((s) => s.ts >= w.start && s.ts <= w.end);
    const ids = new Set(sent.map((s) => s.id));
    const answered = answers.filter((a) => ids.has(a.id) && apiRequests.has(a.id) && a.ts <= w.end);
    if (sent.length === 0 || answered.length === 0) continue;
    w.sent = Math.min(...sent.map((s) => s.ts));
    w.answered = Math.max(...answered.map((a) => a.ts));
  }
  const split = windows.filter((w) => !Number.isNaN(w.sent));
  /** Which phase of which scan a time falls in (-1: none). */
  const phaseAt = (w: (typeof windows)[number], t: number) =>
    t < w.start || t >= w.end ? -1 : t < w.sent ? 0 : t < w.answered ? 1 : 2;

  // The main thread's time, cut into pieces labelled with the innermost event running ('' = idle).
  const intervals: { start: number; end: number; name: string }[] = [];
  const begun: TraceEvent[] = [];
  for (const e of events) {
    if (e.pid !== thread.pid || e.tid !== thread.tid) continue;
    if (e.ph === 'X' && e.dur !== undefined && e.dur > 0)
      intervals.push({ start: e.ts, end: e.ts + e.dur, name: e.name });
    else if (e.ph === 'B') begun.push(e);
    else if (e.ph === 'E') {
      const b = begun.pop();
      if (b && e.ts > b.ts) intervals.push({ start: b.ts, end: e.ts, name: b.name });
    }
  }
  intervals.sort((a, b) => a.start - b.start || b.end - a.end);
  const totals = PHASE_NAMES.map(() => new Map<string, number>());
  let passed = 0; // the pieces come in time order: the scans before this one are done with
  const add = (from: number, to: number, name: string) => {
    while (passed < split.length && (split[passed] as (typeof split)[number]).end <= from) passed++;
    for (let j = passed; j < split.length; j++) {
      const w = split[j] as (typeof split)[number];
      if (w.start >= to) break;
      for (const [cut0, cut1, phase] of [
        [w.start, w.sent, 0],
        [w.sent, w.answered, 1],
        [w.answered, w.end, 2],
      ] as const) {
        const overlap = Math.min(to, cut1) - Math.max(from, cut0);
        if (overlap > 0) {
          const map = totals[phase] as Map<string, number>;
          map.set(name, (map.get(name) ?? 0) + overlap);
        }
      }
    }
  };
  const first = split[0];
  const last = split[split.length - 1];
  if (first && last) {
    const stack: { end: number; name: string }[] = [];
    let cursor = first.start;
    const upTo = (t: number) => {
      if (t <= cursor) return;
      add(cursor, t, stack[stack.length - 1]?.name ?? '');
      cursor = t;
    };
    for (const iv of intervals) {
      if (iv.end <= first.start) continue;
      if (iv.start >= last.end) break;
      for (let top = stack[stack.length - 1]; top && top.end <= iv.start; top = stack[stack.length - 1]) {
        upTo(top.end);
        stack.pop();
      }
      upTo(iv.start);
      const parent = stack[stack.length - 1];
      stack.push({ end: parent ? Math.min(iv.end, parent.end) : iv.end, name: iv.name });
    }
    while (stack.length > 0) {
      upTo(Math.min((stack[stack.length - 1] as { end: number }).end, last.end));
      stack.pop();
    }
    upTo(last.end);
  }

  // JavaScript by function: the sampling profiler's samples on the main thread.
  const selfByFunction = PHASE_NAMES.map(() => new Map<string, number>());
  const selfByPackage = PHASE_NAMES.map(() => new Map<string, number>());
  const where = sourceMaps(webDir);
  for (const { times, frames } of profilesOf(events, thread)) {
    let w = 0;
    for (let i = 0; i + 1 < times.length; i++) {
      const t = times[i] as number;
      while (w < split.length && (split[w] as (typeof split)[number]).end <= t) w++;
      const scan = split[w];
      if (!scan) break;
      const phase = phaseAt(scan, t);
      const frame = frames[i];
      if (phase < 0 || !frame) continue;
      const took = (times[i + 1] as number) - t;
      if (frame.functionName === '(idle)' || frame.functionName === '(program)') continue;
      const place = where(frame);
      const fn = selfByFunction[phase] as Map<string, number>;
      fn.set(place.label, (fn.get(place.label) ?? 0) + took);
      const pkg = selfByPackage[phase] as Map<string, number>;
      pkg.set(place.pkg, (pkg.get(place.pkg) ?? 0) + took);
    }
  }

  // The summary.
  const n = split.length;
  const perScan = (us: number) => (us / 1000 / n).toFixed(1).padStart(6);
  const lines = [
    `${field}: ${n} scans in ${path.basename(file)} (means per scan, ms; the trace itself slows the page)`,
    `  ${'main thread'.padEnd(16)}${PHASE_NAMES.map((p) => p.padStart(18)).join('')}`,
  ];
  const byKind = totals.map((map) => {
    const sums = new Map<Kind, number>();
    for (const [name, us] of map) sums.set(kindOf(name), (sums.get(kindOf(name)) ?? 0) + us);
    return sums;
  });
  for (const kind of KINDS)
    lines.push(
      `  ${kind.padEnd(16)}${byKind.map((sums) => perScan(sums.get(kind) ?? 0).padStart(18)).join('')}`,
    );
  lines.push(
    `  ${'whole'.padEnd(16)}${PHASE_NAMES.map((_, p) =>
      perScan(
        split.reduce(
          (sum, w) =>
            sum + ([w.sent, w.answered, w.end][p] as number) - ([w.start, w.sent, w.answered][p] as number),
          0,
        ),
      ).padStart(18),
    ).join('')}`,
  );
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]) => `    ${perScan(us)}  ${name}`);
  for (const phase of [2, 0] as const) {
    const label = PHASE_NAMES[phase];
    lines.push(`  ${label}: the main thread's innermost events`);
    lines.push(...top(totals[phase] as Map<string, number>, 12));
    lines.push(`  ${label}: JavaScript (sampled self time) by package`);
    lines.push(...top(selfByPackage[phase] as Map<string, number>, 8));
    lines.push(`  ${label}: JavaScript (sampled self time) by function`);
    lines.push(...top(selfByFunction[phase] as Map<string, number>, 20));
  }
  return `${lines.join('\n')}\n`;
}

/** The CPU profiles of the thread: each sample's time and the function it was in. */
function profilesOf(
  events: TraceEvent[],
  thread: { pid: number; tid: number },
): { times: number[]; frames: (CallFrame | undefined)[] }[] {
  const profiles = new Map<
    string,
    { own: boolean; start: number; nodes: Map<number, CallFrame>; samples: number[]; deltas: number[] }
  >();
  for (const e of events) {
    if (e.pid !== thread.pid || (e.name !== 'Profile' && e.name !== 'ProfileChunk')) continue;
    const key = String(e.id);
    const data = (e.args?.data ?? {}) as {
      startTime?: number;
      cpuProfile?: { nodes?: { id: number; callFrame: CallFrame }[]; samples?: number[] };
      timeDeltas?: number[];
    };
    let profile = profiles.get(key);
    if (!profile) {
      profile = { own: false, start: 0, nodes: new Map(), samples: [], deltas: [] };
      profiles.set(key, profile);
    }
    if (e.name === 'Profile') {
      profile.own = e.tid === thread.tid;
      profile.start = data.startTime ?? e.ts;
    }
    for (const node of data.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node.callFrame);
    profile.samples.push(...(data.cpuProfile?.samples ?? []));
    profile.deltas.push(...(data.timeDeltas ?? []));
  }
  const result: { times: number[]; frames: (CallFrame | undefined)[] }[] = [];
  for (const profile of profiles.values()) {
    if (!profile.own) continue;
    let t = profile.start;
    const samples = profile.samples.map((node, i) => {
      t += profile.deltas[i] ?? 0;
      return { t, frame: profile.nodes.get(node) };
    });
    samples.sort((a, b) => a.t - b.t);
    result.push({ times: samples.map((s) => s.t), frames: samples.map((s) => s.frame) });
  }
  return result;
}

/** A sampled function's name and place in our sources (through the build's source maps), and its package. */
function sourceMaps(webDir: string): (frame: CallFrame) => { label: string; pkg: string } {
  const maps = new Map<string, SourceMap | null>();
  const cache = new Map<string, { label: string; pkg: string }>();
  return (sampled) => {
    const frame = {
      ...sampled,
      url: sampled.url ?? '',
      lineNumber: sampled.lineNumber ?? 0,
      columnNumber: sampled.columnNumber ?? 0,
    };
    const key = `${frame.functionName}@${frame.url}:${frame.lineNumber}:${frame.columnNumber}`;
    const known = cache.get(key);
    if (known) return known;
    let label = `${frame.functionName || '(anonymous)'}${frame.url ? ` ${path.basename(frame.url)}:${frame.lineNumber + 1}` : ''}`;
    let pkg = frame.url
      ? path.basename(frame.url)
      : frame.functionName.startsWith('(')
        ? frame.functionName
        : '(V8, native)';
    if (frame.url.startsWith('http')) {
      const pathname = new URL(frame.url).pathname;
      if (!maps.has(pathname)) {
        const mapFile = path.join(webDir, `${pathname}.map`);
        maps.set(
          pathname,
          fs.existsSync(mapFile) ? new SourceMap(JSON.parse(fs.readFileSync(mapFile, 'utf8'))) : null,
        );
      }
      const entry = maps.get(pathname)?.findEntry(frame.lineNumber, frame.columnNumber) as
        | { originalSource?: string; originalLine?: number; name?: string }
        | undefined;
      if (entry?.originalSource) {
        const source = entry.originalSource.replace(/^.*?(node_modules\/|src\/)/, (_, dir: string) =>
          dir === 'src/' ? 'src/' : '',
        );
        pkg = source.startsWith('src/')
          ? source.split('/').slice(0, 3).join('/')
          : (source.match(/^(@[^/]+\/[^/]+|[^/]+)/)?.[1] ?? source);
        label = `${entry.name || frame.functionName || '(anonymous)'} ${source}:${(entry.originalLine ?? 0) + 1}`;
      }
    }
    const result = { label, pkg };
    cache.set(key, result);
    return result;
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, webDir] = process.argv.slice(2);
  if (!file) {
    console.error('Usage: npx tsx bench/trace.ts <trace.json> [dist/web]');
    process.exit(2);
  }
  process.stdout.write(summariseTrace(file, webDir ?? path.resolve(import.meta.dirname, '../dist/web')));
}
