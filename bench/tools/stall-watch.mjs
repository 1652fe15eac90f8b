// The main thread's longest tasks in CPU time, for exploring (not a figure of
// record). Preloaded into a process (`BENCH_SERVICE_NODE_OPTIONS="--import
// ./bench/tools/stall-watch.mjs"`, with STALL_WATCH_OUT=<prefix>), it reads the
// main thread's own on-CPU time (/proc/self/task/<pid>/schedstat, in ns) at
// the start of every task the loop runs (an async_hooks `before` of anything but
// a promise reaction or a nextTick, which belong to the task they follow): the
// CPU time from one task's start to the next one's is that task, its microtasks
// and nextTicks included (the loop's waits in between cost no CPU). Unlike wall
// time (also recorded), it does not grow when a loaded machine preempts the
// process, so it compares across runs on a busy box. It also records the CPU
// time between two turns of a 1 ms heartbeat (what the loop ran without
// reaching its timers again: the tasks of one turn), and the GC pauses
// (perf_hooks, wall time). The hooks cost CPU of their own (a read of a /proc
// file a task): figures with the watch compare with figures with the watch.
// Plain JavaScript: the compiled service runs under plain node, which cannot
// preload TypeScript. It writes <prefix>.<pid>.json every second and at exit.
// STALL_WATCH_TRACE_GC=1 adds V8's --trace-gc. SIGUSR2 marks a window: the first one starts the figures afresh (start-up is
// not what is measured), the second writes them and freezes them (the `email
// hostile` row sends both around its load when STALL_WATCH_OUT is set).
// Linux only; elsewhere, and in worker threads, it does nothing.
import { createHook, executionAsyncResource } from 'node:async_hooks';
import { openSync, readSync, writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

const out = process.env.STALL_WATCH_OUT;
let fd = -1;
try {
  if (isMainThread && out) fd = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
} catch {
  fd = -1;
}

if (fd >= 0) {
  // STALL_WATCH_TRACE_GC=1: V8's --trace-gc (not allowed in NODE_OPTIONS), to the process's stdout (the service log).
  if (process.env.STALL_WATCH_TRACE_GC === '1') setFlagsFromString('--trace-gc');
  const buf = Buffer.alloc(128);
  const cpuNs = () => {
    const n = readSync(fd, buf, 0, buf.length, 0);
    let v = 0;
    for (let i = 0; i < n && buf[i] !== 0x20; i++) v = v * 10 + (buf[i] - 0x30);
    return v;
  };
  // Minor page faults of the main thread (field 10 of /proc/self/task/<pid>/stat): each first write to a fresh
  // page of memory is one, served on the thread that writes.
  const statFd = openSync(`/proc/self/task/${process.pid}/stat`, 'r');
  const statBuf = Buffer.alloc(1024);
  const minorFaults = () => {
    const text = statBuf.toString('latin1', 0, readSync(statFd, statBuf, 0, statBuf.length, 0));
    return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[7]);
  };
  const TOP = 30;
  const keep = (list, entry) => {
    if (list.length < TOP || entry[0] > list[list.length - 1][0]) {
      list.push(entry);
      list.sort((a, b) => b[0] - a[0]);
      if (list.length > TOP) list.pop();
    }
  };
  const fresh = () => ({
    started: process.hrtime.bigint(),
    startedMs: performance.now(),
    faults0: minorFaults(),
    cpuTotalMs: 0,
    /** heartbeat stretches: [cpuMs, wallMs, endUs (process.hrtime µs: a V8 CPU profile's clock), tasks in it] */
    turns: [],
    /** tasks: [cpuMs, wallMs, endUs, kind] */
    tasks: [],
    taskCounts: { tasks: 0, over5: 0, over10: 0, over20: 0, over50: 0 },
    /** CPU ms by the kind of resource a task started from (TCP: sockets' reads, SMTP's among them) */
    cpuByKind: {},
    maxTurnWallMs: 0,
    gc: { count: 0, totalMs: 0, top: [], all: [] },
  });
  let s = fresh();
  let tasksInTurn = 0;
  let kindsInTurn = {};
  let lastCpu = cpuNs();
  let lastWall = process.hrtime.bigint();
  const beat = () => {
    const cpu = cpuNs();
    const wall = process.hrtime.bigint();
    const cpuMs = (cpu - lastCpu) / 1e6;
    const wallMs = Number(wall - lastWall) / 1e6;
    lastCpu = cpu;
    lastWall = wall;
    s.cpuTotalMs += cpuMs;
    if (wallMs > s.maxTurnWallMs) s.maxTurnWallMs = wallMs;
    keep(s.turns, [cpuMs, wallMs, Number(wall / 1000n), tasksInTurn, kindsInTurn]);
    tasksInTurn = 0;
    kindsInTurn = {};
  };
  setInterval(beat, 1).unref();

  let taskCpu = cpuNs();
  let taskWall = process.hrtime.bigint();
  let taskKind = 'start';
  const endTask = (cpu, wall) => {
    const cpuMs = (cpu - taskCpu) / 1e6;
    const c = s.taskCounts;
    c.tasks++;
    tasksInTurn++;
    kindsInTurn[taskKind] = (kindsInTurn[taskKind] ?? 0) + 1;
    s.cpuByKind[taskKind] = (s.cpuByKind[taskKind] ?? 0) + cpuMs;
    if (cpuMs > 5) c.over5++;
    if (cpuMs > 10) c.over10++;
    if (cpuMs > 20) c.over20++;
    if (cpuMs > 50) c.over50++;
    keep(s.tasks, [cpuMs, Number(wall - taskWall) / 1e6, Number(wall / 1000n), taskKind]);
  };
  createHook({
    before() {
      const r = executionAsyncResource();
      // A promise reaction or a nextTick continues the task that queued it.
      if (r instanceof Promise || (r && typeof r === 'object' && 'callback' in r && 'args' in r)) return;
      const cpu = cpuNs();
      const wall = process.hrtime.bigint();
      endTask(cpu, wall);
      taskCpu = cpu;
      taskWall = wall;
      taskKind = r?.constructor?.name ?? typeof r;
    },
  }).enable();

  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      s.gc.count++;
      s.gc.totalMs += e.duration;
      keep(s.gc.top, [e.duration, e.detail?.kind]);
      if (s.gc.all.length < 10_000) s.gc.all.push([Math.round(e.startTime), Math.round(e.duration), e.detail?.kind]);
    }
  }).observe({ entryTypes: ['gc'] });

  let frozen = false;
  const r2 = (x) => +x.toFixed(2);
  const write = () => {
    if (frozen) return;
    const c = s.taskCounts;
    const r = {
      pid: process.pid,
      seconds: Number(process.hrtime.bigint() - s.started) / 1e9,
      /** performance.now() at the window's start */
      startedMs: Math.round(s.startedMs),
      cpuTotalMs: r2(s.cpuTotalMs),
      mainThreadMinorFaults: minorFaults() - s.faults0,
      maxTaskCpuMs: r2(s.tasks[0]?.[0] ?? 0),
      maxTurnCpuMs: r2(s.turns[0]?.[0] ?? 0),
      maxTurnWallMs: r2(s.maxTurnWallMs),
      taskCounts: c,
      cpuByKind: Object.fromEntries(Object.entries(s.cpuByKind).map(([k, v]) => [k, Math.round(v)])),
      // kind: 1 minor (scavenge), 4 major (mark-compact), 8 incremental marking, 16 weak callbacks
      gc: {
        count: s.gc.count,
        totalMs: r2(s.gc.totalMs),
        top: s.gc.top.slice(0, 10).map(([ms, kind]) => ({ ms: r2(ms), kind })),
        /** every pause: [start (performance.now ms), wall ms, kind] */
        all: s.gc.all,
      },
      tasks: s.tasks.map(([cpuMs, wallMs, endUs, kind]) => ({ cpuMs: r2(cpuMs), wallMs: r2(wallMs), endUs, kind })),
      top: s.turns.map(([cpuMs, wallMs, endUs, tasks, kinds]) => ({ cpuMs: r2(cpuMs), wallMs: r2(wallMs), endUs, tasks, kinds })),
    };
    writeFileSync(`${out}.${process.pid}.json`, `${JSON.stringify(r, null, 1)}\n`);
  };
  setInterval(write, 1000).unref();
  process.on('exit', write);
  let marks = 0;
  process.on('SIGUSR2', () => {
    process.stdout.write(`stall-watch: mark ${marks + 1}\n`);
    if (marks++ === 0) {
      s = fresh();
      lastCpu = taskCpu = cpuNs();
      lastWall = taskWall = process.hrtime.bigint();
    } else {
      write();
      frozen = true;
    }
  });
}
