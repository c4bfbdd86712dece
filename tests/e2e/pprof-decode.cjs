// Decode a gzipped pprof profile with pprof-format (an independent
// decoder from npm) and print, as one JSON object, what the tests compare:
// the samples per leaf function, the total, the sample types, the period
// and the mappings. Every id a sample or location names must resolve.
// Usage: node pprof-decode.cjs NODE_MODULES_DIR FILE
'use strict';
const fs = require('fs');
const zlib = require('zlib');
const path = require('path');
const { Profile } = require(path.join(process.argv[2], 'pprof-format'));

function fail(msg) {
  process.stderr.write('pprof-decode: ' + msg + '\n');
  process.exit(1);
}

const raw = fs.readFileSync(process.argv[3]);
if (raw[0] !== 0x1f || raw[1] !== 0x8b) fail('not gzip');
const prof = Profile.decode(zlib.gunzipSync(raw));
const str = (i) => prof.stringTable.strings[Number(i)];
const fns = new Map(prof.function.map((f) => [Number(f.id), f]));
const locs = new Map(prof.location.map((l) => [Number(l.id), l]));
const maps = new Map(prof.mapping.map((m) => [Number(m.id), m]));
const out = {
  sample_types: prof.sampleType.map((t) => str(t.type) + '/' + str(t.unit)),
  period_type: prof.periodType ? str(prof.periodType.type) + '/' + str(prof.periodType.unit) : null,
  period: Number(prof.period),
  total: 0,
  cpu_ns: 0,
  samples: prof.sample.length,
  functions: {},
  stacks: {},
  mappings: prof.mapping.map((m) => ({ file: str(m.filename), build_id: str(m.buildId) })),
};
for (const s of prof.sample) {
  if (s.locationId.length === 0) fail('a sample without locations');
  const names = s.locationId.map((id) => {
    const l = locs.get(Number(id));
    if (!l) fail('sample names location ' + id + ' not in the profile');
    if (Number(l.mappingId) !== 0 && !maps.has(Number(l.mappingId)))
      fail('location ' + id + ' names mapping ' + l.mappingId + ' not in the profile');
    const f = fns.get(Number(l.line[0].functionId));
    if (!f) fail('location ' + id + ' names a function not in the profile');
    return str(f.name);
  });
  const n = Number(s.value[0]);
  out.total += n;
  out.cpu_ns += Number(s.value[1]);
  out.functions[names[0]] = (out.functions[names[0]] || 0) + n;
  const key = names.reverse().join(';');
  out.stacks[key] = (out.stacks[key] || 0) + n;
}
process.stdout.write(JSON.stringify(out) + '\n');
