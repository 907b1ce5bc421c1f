#!/usr/bin/env python3
"""vtk_check.py: reads vxc's ParaView files back with VTK's own XML readers and checks them.

  vtk_check.py region FILE.vtu METRICS.json [V_TRUE]
      the integrated region of `vxc metrics --json --vtk`: per cell pair of the JSON, the
      cells' "volume" sum to the pair's V, "volume_lo" and "volume_hi" to its bracket,
      "error_estimate" to its estimate, "bracket_width" is volume_hi - volume_lo, the leaf
      cells are as many as its "leaves"; from the cells' points (the geometry VTK reads),
      each whole box's volume is its "volume", no leaf holds more than its cube, and with
      V_TRUE (a closed form) the whole boxes hold at most V_TRUE and all cubes at least it;
      with --patches, each patch's cells sum to its volume.
  vtk_check.py solids FILE.vtp V_A V_B RTOL
      the posed solids' surfaces: each cell's triangles are closed (every edge shared by
      two of them, opposite ways: the points are welded and consistently oriented) and the
      volume they enclose (divergence theorem: positive only if they face outward) is V_A,
      V_B within RTOL.
  vtk_check.py frames DIR SERIES.csv CONTACT BODY [FIXED]
      the frames of `vxc task --vtk DIR`: DIR/contact.pvd lists one frame per row of
      SERIES.csv at its time, DIR/bodies.pvd one dataset per body (part K for body K); each
      contact frame's cells are voxels in patches, and the volumes of the octree's cells
      sum to the column CONTACT.V (with those of pairs measured in closed form, shown by a
      coarse octree, their brackets hold it); each body's frames are triangles of that body
      alone, as many points and triangles as its first frame, enclosing the same volume;
      the centroid of the volume BODY's triangles enclose (BODY a ball centred on its model
      origin) is at BODY.x .y .z within 0.5 mm; the fixed body FIXED has one file, shown at
      every record.

Prints one line per check and exits 1 on the first failure, 2 when a file cannot be read.
"""
import json
import math
import sys

from vtkmodules.vtkCommonDataModel import VTK_VOXEL
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader, vtkXMLUnstructuredGridReader


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def check(cond, msg):
    print(("ok: " if cond else "FAIL: ") + msg)
    if not cond:
        sys.exit(1)


def close(a, b, rel, absol=0.0):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + absol


def read(reader_cls, path):
    errors = []
    r = reader_cls()
    r.SetFileName(path)
    r.AddObserver("ErrorEvent", lambda obj, ev: errors.append(ev))
    r.Update()
    out = r.GetOutput()
    if errors or r.GetErrorCode() != 0 or out is None:
        print("cannot read", path)
        sys.exit(2)
    return out


def cell_array(data, name):
    a = data.GetCellData().GetArray(name)
    if a is None:
        fail("no cell data '%s'" % name)
    return [a.GetValue(i) for i in range(a.GetNumberOfTuples())]


def cell_points(data, i):
    ids = data.GetCell(i).GetPointIds()
    return [data.GetPoint(ids.GetId(j)) for j in range(ids.GetNumberOfIds())]


def region(path, json_path, v_true):
    grid = read(vtkXMLUnstructuredGridReader, path)
    with open(json_path) as f:
        m = json.load(f)
    n = grid.GetNumberOfCells()
    check(all(grid.GetCellType(i) == VTK_VOXEL for i in range(n)), "%d cells, all voxels" % n)
    f = {k: cell_array(grid, k) for k in ("pair", "patch", "leaf", "volume", "volume_lo", "volume_hi",
                                          "bracket_width", "error_estimate", "size")}
    cube, cubic = [], True
    for i in range(n):
        p = cell_points(grid, i)
        span = [max(q[k] for q in p) - min(q[k] for q in p) for k in range(3)]
        # a cube of edge 'size', or a column: one edge longer (the rtol rule's column leaves)
        longer = [s for s in span if not close(s, f["size"][i], 1e-12)]
        cubic &= len(longer) <= 1 and all(s > f["size"][i] for s in longer)
        cube.append(span[0] * span[1] * span[2])
    check(cubic, "cells are cubes of edge 'size' or columns of that cross-section")
    check(all(close(f["bracket_width"][i], f["volume_hi"][i] - f["volume_lo"][i], 1e-12, 1e-30)
              for i in range(n)), "bracket_width = volume_hi - volume_lo")
    box = [f["leaf"][i] == 0 for i in range(n)]
    check(all(close(f["volume"][i], cube[i], 1e-9) for i in range(n) if box[i]),
          "each whole box's volume is its cube's (%d boxes)" % sum(box))
    check(all(f["volume"][i] <= cube[i] * (1 + 1e-9) for i in range(n) if not box[i]),
          "no leaf holds more than its cube (%d leaves)" % (n - sum(box)))
    pairs = m["pairs"]
    check(set(f["pair"]) == set(range(len(pairs))), "cells of pairs 0..%d" % (len(pairs) - 1))
    closed = cell_array(grid, "closed_form")
    for k, p in enumerate(pairs):
        sel = [i for i in range(n) if f["pair"][i] == k]
        if p.get("closed_form"):
            coarse_region(f, closed, sel, k, p["volume"], 1e-10)
            continue
        check(all(closed[i] == 0 for i in sel), "pair %d: the octree's cells (closed_form 0)" % k)
        total = {key: math.fsum(f[key][i] for i in sel)
                 for key in ("volume", "volume_lo", "volume_hi", "error_estimate")}
        check(close(total["volume"], p["volume"], 1e-10),
              "pair %d: volumes sum to V = %.9g (%.9g)" % (k, p["volume"], total["volume"]))
        # the engine's bracket is [min(sum lo, V), max(sum hi, V)]
        check(close(min(total["volume_lo"], total["volume"]), p["volume_lo"], 1e-10),
              "pair %d: brackets sum to volume_lo = %.9g" % (k, p["volume_lo"]))
        check(close(max(total["volume_hi"], total["volume"]), p["volume_hi"], 1e-10),
              "pair %d: brackets sum to volume_hi = %.9g" % (k, p["volume_hi"]))
        check(close(total["error_estimate"], p["error_estimate"], 1e-9, 1e-300),
              "pair %d: estimates sum to %.3g" % (k, p["error_estimate"]))
        for j, patch in enumerate(p.get("patches", [])):
            got = math.fsum(f["volume"][i] for i in sel if f["patch"][i] == j)
            check(close(got, patch["volume"], 1e-10),
                  "pair %d patch %d: its cells sum to its V = %.9g" % (k, j, patch["volume"]))
        leaves = sum(1 for i in sel if not box[i])
        check(leaves == p["leaves"], "pair %d: %d leaf cells (JSON: %d)" % (k, leaves, p["leaves"]))
    if v_true is not None:
        inner = math.fsum(cube[i] for i in range(n) if box[i])
        outer = math.fsum(cube)
        check(inner <= v_true <= outer,
              "whole boxes %.9g <= closed form %.9g <= all cubes %.9g" % (inner, v_true, outer))


def coarse_region(f, closed, sel, k, v, rel):
    """The cells showing a pair measured in closed form or by quadrature: all tagged so (1
    or 2), and the coarse octree's bracket, summed over them, holds the pair's V (the
    closed form's or quadrature's, given to the relative precision rel)."""
    check(len(sel) > 1 and all(closed[i] in (1, 2) for i in sel),
          "pair %d (closed form %d): %d cells of the octree's coarse region" %
          (k, closed[sel[0]], len(sel)))
    lo = math.fsum(f["volume_lo"][i] for i in sel)
    hi = math.fsum(f["volume_hi"][i] for i in sel)
    check(lo <= v * (1 + rel) and v * (1 - rel) <= hi,
          "pair %d: the coarse cells' bracket [%.6g, %.6g] holds its V = %.9g" % (k, lo, hi, v))


def solids(path, va, vb, rtol):
    poly = read(vtkXMLPolyDataReader, path)
    n = poly.GetNumberOfCells()
    solid = cell_array(poly, "solid")
    six_v = [0.0, 0.0]
    for i in range(n):
        p = cell_points(poly, i)
        if len(p) != 3:
            fail("cell %d is not a triangle" % i)
        a, b, c = p
        cross = (b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0])
        six_v[solid[i]] += a[0] * cross[0] + a[1] * cross[1] + a[2] * cross[2]
    print("ok: %d triangles" % n)
    # closed: every edge of a cell's triangles is shared by two of them, once each way
    cell = cell_array(poly, "cell")
    edges = {}
    for i in range(n):
        ids = poly.GetCell(i).GetPointIds()
        t = [ids.GetId(j) for j in range(3)]
        for j in range(3):
            e = ((solid[i], cell[i]), t[j], t[(j + 1) % 3])
            edges[e] = edges.get(e, 0) + 1
    bad = sum(1 for (k, a, b), c in edges.items() if c != 1 or edges.get((k, b, a)) != 1)
    check(bad == 0, "%d points; every edge shared by two triangles, opposite ways (%d not)" %
          (poly.GetNumberOfPoints(), bad))
    for k, want in enumerate((va, vb)):
        got = six_v[k] / 6
        check(close(got, want, rtol), "solid %d encloses %.9g m^3 (want %.9g, rtol %g)" %
              (k, got, want, rtol))


def enclosed(poly, body):
    """Volume and centroid of what the triangles of solid `body` enclose."""
    solid = cell_array(poly, "solid")
    v, m = 0.0, [0.0, 0.0, 0.0]
    for i in range(poly.GetNumberOfCells()):
        if solid[i] != body:
            continue
        a, b, c = cell_points(poly, i)
        cross = (b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0])
        d = (a[0] * cross[0] + a[1] * cross[1] + a[2] * cross[2]) / 6
        v += d
        for k in range(3):
            m[k] += d * (a[k] + b[k] + c[k]) / 4
    return v, [x / v for x in m]


def pvd(folder, name):
    """(time, part, file) of each DataSet of FOLDER/NAME.pvd."""
    import os
    import xml.etree.ElementTree as ET
    sets = ET.parse(os.path.join(folder, name + ".pvd")).getroot().iter("DataSet")
    return [(float(d.get("timestep")), int(d.get("part")), d.get("file")) for d in sets]


def contact_frame(grid, want, t):
    """A contact frame: voxel cells in patches; the octree's cells (closed_form 0) sum to
    the contact's V, or with the cells of pairs measured in closed form (whose coarse
    octree's bracket holds those pairs' V) bracket it. Returns 1 when it had such cells."""
    n = grid.GetNumberOfCells()
    if n == 0:
        if want != 0:
            fail("t = %s: no cells, series V = %.9g" % (t, want))
        return 0
    if any(grid.GetCellType(i) != VTK_VOXEL or grid.GetCell(i).GetNumberOfPoints() != 8
           for i in range(n)):
        fail("t = %s: a cell that is not a voxel of 8 points" % t)
    if min(cell_array(grid, "patch")) < 0:
        fail("t = %s: a cell outside every patch" % t)
    vol, lo, hi = (cell_array(grid, k) for k in ("volume", "volume_lo", "volume_hi"))
    closed = cell_array(grid, "closed_form")
    octree = math.fsum(vol[i] for i in range(n) if closed[i] == 0)
    cf = [i for i in range(n) if closed[i] != 0]
    if not cf:
        if not close(octree, want, 1e-7, 1e-18):  # the series has 8 digits
            fail("t = %s: volumes sum to %.9g, series %.9g" % (t, octree, want))
        return 0
    a = octree + math.fsum(lo[i] for i in cf)
    b = octree + math.fsum(hi[i] for i in cf)
    if not (a * (1 - 1e-7) - 1e-18 <= want <= b * (1 + 1e-7) + 1e-18):
        fail("t = %s: the cells bracket [%.9g, %.9g] misses the series' V %.9g" % (t, a, b, want))
    return 1


def frames(folder, csv_path, contact, body, fixed=None):
    import csv
    import os
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    names = [k[:-2] for k in rows[0] if k.endswith(".x")]
    nb = len(names)
    bodies, contacts = pvd(folder, "bodies"), pvd(folder, "contact")
    check(len(contacts) == len(rows) and len(bodies) == nb * len(rows),
          "contact.pvd: %d frames, bodies.pvd: %d datasets, for %d records of %d bodies" %
          (len(contacts), len(bodies), len(rows), nb))
    check(all(close(t, float(rows[i // nb]["t"]), 1e-12, 1e-15) and part == i % nb
              for i, (t, part, _) in enumerate(bodies)) and
          all(close(t, float(r["t"]), 1e-12, 1e-15) for (t, _, _), r in zip(contacts, rows)),
          "the .pvd files list the records' times, a part per body")
    quadrature = 0
    for (_, _, fname), r in zip(contacts, rows):
        grid = read(vtkXMLUnstructuredGridReader, os.path.join(folder, fname))
        quadrature += contact_frame(grid, float(r[contact + ".V"]), r["t"])
    print("ok: every contact frame agrees with the series (%d of them with cells of pairs "
          "measured in closed form)" % quadrature)
    first = {}
    for i, (_, k, fname) in enumerate(bodies):
        poly = read(vtkXMLPolyDataReader, os.path.join(folder, fname))
        if set(cell_array(poly, "solid")) != {k}:
            fail("%s: cells of another body than %d" % (fname, k))
        if any(poly.GetCell(j).GetNumberOfPoints() != 3 for j in range(poly.GetNumberOfCells())):
            fail("%s: a cell that is not a triangle" % fname)
        shape = (poly.GetNumberOfPoints(), poly.GetNumberOfCells(), enclosed(poly, k)[0])
        first.setdefault(k, shape)
        a, b = first[k], shape
        if a[:2] != b[:2] or not close(a[2], b[2], 1e-5):
            fail("%s: %d points, %d triangles enclosing %.9g m^3, the first frame %s" %
                 ((fname,) + b + (a,)))
        if names[k] == body:
            r = rows[i // nb]
            _, c = enclosed(poly, k)
            want = [float(r[body + "." + x]) for x in "xyz"]
            if max(abs(c[x] - want[x]) for x in range(3)) > 5e-4:
                fail("t = %s: %s's centroid %s, series %s" % (r["t"], body, c, want))
    print("ok: every body frame is its first frame's mesh moved; %s's centroid follows the "
          "series" % body)
    if fixed is not None:
        k = names.index(fixed)
        files = set(f for _, part, f in bodies if part == k)
        mine = [f for f in os.listdir(folder) if f.endswith("-body-%d.vtp" % k)]
        check(len(files) == 1 and mine == list(files),
              "the fixed %s is written once (%s) and shown at every record" % (fixed, mine))


def main(argv):
    if len(argv) >= 4 and argv[1] == "region":
        region(argv[2], argv[3], float(argv[4]) if len(argv) > 4 else None)
    elif len(argv) in (6, 7) and argv[1] == "frames":
        frames(*argv[2:])
    elif len(argv) == 6 and argv[1] == "solids":
        solids(argv[2], float(argv[3]), float(argv[4]), float(argv[5]))
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
