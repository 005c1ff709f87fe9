import { describe, expect, it } from 'vitest';
import { createMetricsRegistry } from './metrics-registry.js';

describe('metrics registry', () => {
  it('renders counters, gauges and cumulative histograms in the Prometheus text format', () => {
    const registry = createMetricsRegistry();
    const requests = registry.counter('app_requests_total', 'Requests answered.');
    const latency = registry.histogram('app_seconds', 'Latency.', [0.1, 1]);
    let inFlight = 2;
    registry.gauge('app_in_flight', 'Requests running.', () => [{ value: inFlight }]);

    requests.inc({ route: '/a', status: '200' });
    requests.inc({ status: '200', route: '/a' }, 2);
    requests.inc({ route: '/b "q"\\', status: '404' });
    latency.observe({ route: '/a' }, 0.05);
    latency.observe({ route: '/a' }, 0.5);
    latency.observe({ route: '/a' }, 3);
    inFlight = 5;

    expect(registry.render()).toBe(
      [
        '# HELP app_requests_total Requests answered.',
        '# TYPE app_requests_total counter',
        'app_requests_total{route="/a",status="200"} 3',
        'app_requests_total{route="/b \\"q\\"\\\\",status="404"} 1',
        '# HELP app_seconds Latency.',
        '# TYPE app_seconds histogram',
        'app_seconds_bucket{route="/a",le="0.1"} 1',
        'app_seconds_bucket{route="/a",le="1"} 2',
        'app_seconds_bucket{route="/a",le="+Inf"} 3',
        'app_seconds_sum{route="/a"} 3.55',
        'app_seconds_count{route="/a"} 3',
        '# HELP app_in_flight Requests running.',
        '# TYPE app_in_flight gauge',
        'app_in_flight 5',
        '',
      ].join('\n'),
    );
  });

  it('refuses a bad or repeated name', () => {
    const registry = createMetricsRegistry();
    registry.counter('ok_total', 'x');
    expect(() => registry.counter('ok_total', 'x')).toThrow(/twice/);
    expect(() => registry.counter('bad-name', 'x')).toThrow(/invalid/);
  });
});
