// One load slice, run in its own process (pinned to its own core by the caller): autocannon against
// one URL for a fixed time. Input: one JSON argument; output: one JSON line of the results.
import autocannon from 'autocannon';
import process from 'node:process';

const spec = JSON.parse(process.argv[2]);
let next = 0;
const paths = spec.paths;
const bodies = spec.bodies;

const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  pipelining: 1,
  timeout: 30,
  // The run ends at the first sample after its duration: samples every 100 ms let a slice last half a second.
  sampleInt: 100,
  requests: [
    {
      method: spec.method,
      headers: spec.headers,
      setupRequest: (request) => {
        const i = next++;
        if (paths) request.path = paths[i % paths.length];
        if (bodies) request.body = bodies[i % bodies.length];
        return request;
      },
    },
  ],
});

process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytes: result.throughput.total,
  }) + '\n',
);
