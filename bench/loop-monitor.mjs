// Preloaded into a server under benchmark (`node --import ./bench/loop-monitor.mjs …`): measures
// how long the event loop stalls. On SIGUSR2 it prints one JSON line and starts a new window.
//
// Two figures, because this machine is shared: `max_ms` is the wall-clock stall a heartbeat or a
// request callback saw (it includes time the OS gave the CPU to other processes), `busy_max_ms` is
// the main thread's own CPU time inside the longest gaps: how long Sugu's code held the loop.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
const TICK = 10;
let last = performance.now();
let lastCpu = process.threadCpuUsage();
let worstLate = 0;
let worstBusy = 0;
setInterval(() => {
  const now = performance.now();
  const cpu = process.threadCpuUsage();
  const late = now - last - TICK;
  const busy = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
  worstLate = Math.max(worstLate, late);
  worstBusy = Math.max(worstBusy, busy);
  last = now;
  lastCpu = cpu;
}, TICK).unref();

const r = (x) => Math.round(x * 10) / 10;
process.on('SIGUSR2', () => {
  console.log(
    JSON.stringify({
      msg: 'event_loop',
      pid: process.pid,
      max_ms: r(histogram.max / 1e6),
      p99_ms: r(histogram.percentile(99) / 1e6),
      mean_ms: r(histogram.mean / 1e6),
      timer_late_max_ms: r(worstLate),
      busy_max_ms: r(worstBusy),
    }),
  );
  histogram.reset();
  worstLate = worstBusy = 0;
  last = performance.now();
  lastCpu = process.threadCpuUsage();
});
