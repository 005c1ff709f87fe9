/**
 * A small Prometheus registry: counters, gauges read at scrape time, and histograms, rendered in the text
 * exposition format (version 0.0.4). Hand-written rather than a dependency: Coffer needs a dozen series,
 * and the format is a few lines of text.
 */

export type Labels = Readonly<Record<string, string>>;

export interface Counter {
  inc(labels?: Labels, by?: number): void;
}

export interface Histogram {
  observe(labels: Labels, value: number): void;
}

export interface MetricsRegistry {
  counter(name: string, help: string): Counter;
  histogram(name: string, help: string, buckets: readonly number[]): Histogram;
  /** A gauge whose samples `collect` returns at each scrape (pool sizes, requests in flight). */
  gauge(name: string, help: string, collect: () => readonly GaugeSample[]): void;
  /** Every metric, in the Prometheus text format. */
  render(): string;
}

export interface GaugeSample {
  labels?: Labels;
  value: number;
}

/** The content type Prometheus expects for `render()`'s output. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return '';
  return `{${entries.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(',')}}`;
}

/** One key per label set, independent of the order the labels were written in. */
function keyOf(labels: Labels | undefined): string {
  return JSON.stringify(Object.entries(labels ?? {}).sort(([a], [b]) => a.localeCompare(b)));
}

function numberText(value: number): string {
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

interface HistogramSeries {
  labels: Labels;
  /** Per bucket, not cumulative; the last entry counts values above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

export function createMetricsRegistry(): MetricsRegistry {
  const renderers: (() => string[])[] = [];
  const names = new Set<string>();

  function declare(name: string, help: string, type: string): string[] {
    if (!NAME.test(name)) throw new Error(`invalid metric name ${name}`);
    if (names.has(name)) throw new Error(`metric ${name} declared twice`);
    names.add(name);
    return [`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${name} ${type}`];
  }

  return {
    counter(name, help) {
      const header = declare(name, help, 'counter');
      const series = new Map<string, { labels: Labels; value: number }>();
      renderers.push(() => [
        ...header,
        ...[...series.values()].map((s) => `${name}${labelText(s.labels)} ${numberText(s.value)}`),
      ]);
      return {
        inc(labels = {}, by = 1) {
          const key = keyOf(labels);
          const entry = series.get(key);
          if (entry === undefined) series.set(key, { labels, value: by });
          else entry.value += by;
        },
      };
    },

    histogram(name, help, buckets) {
      const header = declare(name, help, 'histogram');
      const bounds = [...buckets].sort((a, b) => a - b);
      const series = new Map<string, HistogramSeries>();
      renderers.push(() => {
        const lines = [...header];
        for (const s of series.values()) {
          let cumulative = 0;
          bounds.forEach((bound, i) => {
            cumulative += s.counts[i] ?? 0;
            lines.push(`${name}_bucket${labelText({ ...s.labels, le: numberText(bound) })} ${cumulative}`);
          });
          lines.push(`${name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
          lines.push(`${name}_sum${labelText(s.labels)} ${numberText(s.sum)}`);
          lines.push(`${name}_count${labelText(s.labels)} ${s.count}`);
        }
        return lines;
      });
      return {
        observe(labels, value) {
          const key = keyOf(labels);
          let entry = series.get(key);
          if (entry === undefined) {
            entry = { labels, counts: new Array<number>(bounds.length + 1).fill(0), sum: 0, count: 0 };
            series.set(key, entry);
          }
          const index = bounds.findIndex((bound) => value <= bound);
          const slot = index === -1 ? bounds.length : index;
          entry.counts[slot] = (entry.counts[slot] ?? 0) + 1;
          entry.sum += value;
          entry.count += 1;
        },
      };
    },

    gauge(name, help, collect) {
      const header = declare(name, help, 'gauge');
      renderers.push(() => [
        ...header,
        ...collect().map((s) => `${name}${labelText(s.labels)} ${numberText(s.value)}`),
      ]);
    },

    render() {
      return `${renderers.flatMap((render) => render()).join('\n')}\n`;
    },
  };
}
