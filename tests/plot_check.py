#!/usr/bin/env python3
"""plot_check.py: checks the gnuplot scripts the tools write (plots.gp, sweep.gp) without
rendering them.

  plot_check.py SCRIPT...

For every plot command of each script: the plot (or multiplot panel) has a title; its x and
y labels name one unit each ("t [s]": one bracket, no comma or second unit in it); a heat
map (with image, palette) has a colour box label of one unit; every curve of a line plot
has its own colour (lc rgb '#rrggbb', none shared within the plot, none pale: relative
luminance below 0.6, so no yellow on white) and a title in the key; the y range is computed
from the data (set yrange from variables, never fixed numbers). Prints one line per script
and exits 1 at the first failure.
"""
import re
import sys


def fail(script, line, msg):
    print("FAIL: %s:%d: %s" % (script, line, msg))
    sys.exit(1)


def statements(text):
    """(line number, statement) with continuation lines joined."""
    out, cur, start = [], "", 0
    for n, line in enumerate(text.splitlines(), 1):
        if not cur:
            start = n
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        out.append((start, (cur + line).strip()))
        cur = ""
    return out


def quoted(s):
    """The value of a gnuplot string at the start of s ('...' with '' for a quote)."""
    m = re.match(r"'((?:[^']|'')*)'", s)
    return m.group(1).replace("''", "'") if m else None


def split_top(s):
    """s split at the commas outside quotes and parentheses."""
    parts, depth, q, cur = [], 0, False, ""
    for c in s:
        if c == "'":
            q = not q
        elif not q and c == "(":
            depth += 1
        elif not q and c == ")":
            depth -= 1
        if c == "," and not q and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return [p.strip() for p in parts]


def one_unit(label):
    units = re.findall(r"\[([^\]]*)\]", label or "")
    return len(units) == 1 and units[0].strip() and "," not in units[0] and ";" not in units[0]


def luminance(rgb):
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(rgb[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def check_plot(script, n, body, state):
    if not state.get("title"):
        fail(script, n, "a plot without a title")
    for axis in ("xlabel", "ylabel"):
        if not one_unit(state.get(axis)):
            fail(script, n, "%s '%s' does not name one unit" % (axis, state.get(axis)))
    if " with image" in body or " palette" in body:
        if not one_unit(state.get("cblabel")):
            fail(script, n, "a heat map whose colour box label '%s' does not name one unit" %
                 state.get("cblabel"))
        return 0
    if not state.get("yrange_from_data"):
        fail(script, n, "a line plot whose y range is not computed from the data")
    colours = []
    for curve in split_top(body):
        m = re.search(r"lc rgb '(#[0-9a-fA-F]{6})'", curve)
        if not m:
            fail(script, n, "a curve without its own colour: %s" % curve[:80])
        if " notitle" in curve or not re.search(r" title '", curve):
            fail(script, n, "a curve without a title in the key: %s" % curve[:80])
        colours.append(m.group(1).lower())
    if len(set(colours)) != len(colours):
        fail(script, n, "curves sharing a colour: %s" % colours)
    pale = [c for c in colours if luminance(c) >= 0.6]
    if pale:
        fail(script, n, "pale colours on white: %s" % pale)
    return len(colours)


def check(script):
    with open(script) as f:
        text = f.read()
    state, plots, curves = {}, 0, 0
    for n, st in statements(text):
        m = re.match(r"set (title|xlabel|ylabel|cblabel) (.*)", st)
        if m:
            state[m.group(1)] = quoted(m.group(2))
            continue
        ranges = re.findall(r"set yrange \[([^\]]*)\]", st)
        if ranges:  # from the data, with a fixed fallback when there is none
            if not any(re.search(r"[A-Za-z_]", r) for r in ranges):
                fail(script, n, "a fixed y range: %s" % st)
            state["yrange_from_data"] = True
            continue
        if re.match(r"set output", st):
            state.pop("yrange_from_data", None)
            continue
        if st.startswith("plot "):
            curves += check_plot(script, n, st[5:], state)
            plots += 1
            state.pop("yrange_from_data", None)
    if plots == 0:
        fail(script, 0, "no plot")
    print("ok: %s: %d plots, %d curves: titles, one unit per axis, distinct colours, ranges "
          "from the data" % (script, plots, curves))


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        sys.exit(2)
    for script in argv[1:]:
        check(script)


if __name__ == "__main__":
    main(sys.argv)
