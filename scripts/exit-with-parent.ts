/**
 * Loaded (`node --import`) into each process scripts/start.ts starts: it stops
 * the process, as SIGTERM would, once the start's process is gone, so that not
 * even the start killed outright (SIGKILL: no exit handler runs) leaves a
 * simulator behind.
 */
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  process.kill(process.pid, "SIGTERM");
}, 500);
watch.unref();
