// manifold.mjs: the Manifold peer of `vxc bench --mesh`: the intersection of two closed
// triangle meshes (OBJ) placed by two poses, by the npm package manifold-3d (WebAssembly,
// one thread), its boolean and volume timed alone.
//
//   node manifold.mjs A.obj B.obj [--pose-a "X Y Z QW QX QY QZ"] [--pose-b ...]
//                     [--budget-ms T] [--max-runs N]
//
// manifold-3d is loaded from the folder $VXC_NODE_CACHE (default $XDG_CACHE_HOME/vxc-bench,
// else ~/.cache/vxc-bench), never from the repository: `npm install --prefix DIR
// manifold-3d`. Exit status 3 with a message saying so when it is not there.
// Manifold's JavaScript meshes hold float32 vertices: the meshes are built from those, then
// every vertex is moved to its placed position in double precision (warpBatch, matched by
// its float32 position), so that Manifold intersects the same polyhedra as the other tools.
// Prints one line: `volume V ms T runs N triangles N` (V in m^3; T the smallest CPU time,
// ms, of one intersection and its volume over N runs, at least 3, while their total stays
// under T ms). Exit status 1 on a file that cannot be read or a mesh Manifold rejects.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

function fail(msg, status = 1) {
  process.stderr.write(`manifold.mjs: ${msg}\n`);
  process.exit(status);
}

function cacheDir() {
  if (process.env.VXC_NODE_CACHE) return process.env.VXC_NODE_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'vxc-bench');
}

async function loadManifold() {
  const dir = cacheDir();
  let entry;
  try {
    entry = createRequire(join(dir, 'package.json')).resolve('manifold-3d/manifold.js');
  } catch (e) {
    fail(`manifold-3d is not installed in ${dir} (npm install --prefix ${dir} manifold-3d)`, 3);
  }
  const mod = await import(pathToFileURL(entry).href);
  const wasm = await mod.default();
  wasm.setup();
  return wasm;
}

// The mesh of an OBJ file, its vertices welded (equal coordinates are one vertex).
function readObj(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    fail(`${path}: cannot open (${e.code})`);
  }
  const v = [], t = [], ids = [], seen = new Map(); // ids: file index -> welded vertex
  text.split('\n').forEach((line, n) => {
    const w = line.trim().split(/\s+/);
    if (w[0] === 'v') {
      const p = w.slice(1, 4).map(Number);
      if (p.length < 3 || p.some(Number.isNaN)) fail(`${path}:${n + 1}:1: expected three coordinates`);
      const key = p.join(',');
      if (!seen.has(key)) {
        seen.set(key, v.length);
        v.push(p);
      }
      ids.push(seen.get(key));
    } else if (w[0] === 'f') {
      const f = w.slice(1).map((s) => {
        let k = parseInt(s, 10);
        k = k < 0 ? ids.length + k : k - 1;
        if (!(k >= 0 && k < ids.length)) fail(`${path}:${n + 1}:3: vertex index '${s}' out of range`);
        return ids[k];
      });
      if (f.length < 3) fail(`${path}:${n + 1}:3: a face needs three vertices`);
      for (let k = 1; k + 1 < f.length; k++) t.push(f[0], f[k], f[k + 1]);
    }
  });
  return { v, t };
}

// x -> R(q) x + p, in the order of the benchmark's ms_transform (mesh_shapes.c)
function place(v, pose) {
  const [px, py, pz, w, x, y, z] = pose;
  const R = [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
             2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
             2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
  const p = [px, py, pz];
  return v.map((a) => [0, 1, 2].map((k) =>
    R[3 * k] * a[0] + R[3 * k + 1] * a[1] + R[3 * k + 2] * a[2] + p[k]));
}

// A Manifold of the placed mesh: float32 vertices, then moved to the doubles.
function build(wasm, obj, pose, path) {
  const world = place(obj.v, pose);
  const f32 = new Float32Array(world.flat());
  const exact = new Map();
  for (let i = 0; i < world.length; i++) {
    exact.set(`${f32[3 * i]},${f32[3 * i + 1]},${f32[3 * i + 2]}`, world[i]);
  }
  if (exact.size !== world.length) fail(`${path}: two vertices round to one float32 position`);
  const mesh = new wasm.Mesh({ numProp: 3, vertProperties: f32, triVerts: new Uint32Array(obj.t) });
  mesh.merge();
  let m;
  try {
    m = new wasm.Manifold(mesh);
  } catch (e) {
    fail(`${path}: Manifold rejects the mesh (${e.message || e})`);
  }
  const moved = m.warpBatch((verts, count) => {
    for (let i = 0; i < count; i++) {
      const key = `${Math.fround(verts[3 * i])},${Math.fround(verts[3 * i + 1])},` +
                  `${Math.fround(verts[3 * i + 2])}`;
      const p = exact.get(key);
      if (!p) fail(`${path}: a vertex Manifold returned is not one of the mesh's`);
      verts[3 * i] = p[0];
      verts[3 * i + 1] = p[1];
      verts[3 * i + 2] = p[2];
    }
  });
  m.delete();
  moved.numTri(); // evaluated before any timing
  return moved;
}

function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
}

function parsePose(text) {
  const p = text.trim().split(/\s+/).map(Number);
  if (p.length !== 7 || p.some(Number.isNaN)) {
    fail(`--pose: expected 7 numbers (x y z qw qx qy qz), got '${text}'`, 2);
  }
  return p;
}

async function main() {
  const args = process.argv.slice(2), paths = [];
  const pose = [[0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0]];
  let budget = 300, maxRuns = 50;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if ((a === '--pose-a' || a === '--pose-b') && i + 1 < args.length) {
      pose[a === '--pose-b' ? 1 : 0] = parsePose(args[++i]);
    } else if (a === '--budget-ms' && i + 1 < args.length) {
      budget = Number(args[++i]);
    } else if (a === '--max-runs' && i + 1 < args.length) {
      maxRuns = Math.max(1, parseInt(args[++i], 10));
    } else if (!a.startsWith('-') && paths.length < 2) {
      paths.push(a);
    } else {
      fail(`usage: node manifold.mjs A.obj B.obj [--pose-a "X Y Z QW QX QY QZ"] [--pose-b ...] ` +
           `(unexpected '${a}')`, 2);
    }
  }
  if (paths.length !== 2) fail('usage: node manifold.mjs A.obj B.obj [--pose-a ...] [--pose-b ...]', 2);
  const objs = paths.map(readObj);
  const wasm = await loadManifold();
  const m = paths.map((p, k) => build(wasm, objs[k], pose[k], p));
  let best = Infinity, total = 0, runs = 0, volume = 0;
  while (runs < maxRuns && (runs < 3 || total < budget)) {
    const t0 = cpuMs();
    const r = m[0].intersect(m[1]);
    volume = r.volume();
    const t = cpuMs() - t0;
    r.delete();
    best = Math.min(best, t);
    total += t;
    runs++;
  }
  process.stdout.write(`volume ${volume} ms ${best} runs ${runs} triangles ` +
                       `${(objs[0].t.length + objs[1].t.length) / 3}\n`);
}

main();
