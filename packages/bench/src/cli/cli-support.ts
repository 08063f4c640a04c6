import { ProgressBar } from '@agentic-rag/core/cli';

/**
 * Progress on stderr for a run that reports `(key, done, total)` for several passes, modes or
 * datasets in turn (rag:eval's golden, BEIR and suite runs): one bar per key, made at its first
 * report and finished at its last.
 */
export function progressBars<Key extends string>(
  label: (key: Key) => string,
  unit: string,
): (key: Key, done: number, total: number) => void {
  const bars = new Map<Key, ProgressBar>();
  return (key, done, total) => {
    let bar = bars.get(key);
    if (!bar) bars.set(key, (bar = new ProgressBar({ label: label(key) })));
    bar.update(done, total, unit);
    if (done === total) bar.finish();
  };
}
