"""The numbers a report shows: medians, spreads and ratios over the recorded wrk runs, and how they are written."""

import statistics


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def runs_of(data, phase, route, mode, kind):
    return [run for run in data["runs"] if run["phase"] == phase and run["route"] == route and run["mode"] == mode and run["server"] == kind]


def cell(data, phase, route, mode, kind, key):
    return median([run[key] for run in runs_of(data, phase, route, mode, kind)])


def spread(data, phase, route, mode, kind, key):
    """' ±N%': half the range of the rounds as a share of their median; empty for fewer than two rounds."""
    values = [run[key] for run in runs_of(data, phase, route, mode, kind) if run[key] is not None]
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    middle = statistics.median(values)
    return f" ±{(high - low) / 2 / middle * 100:.0f}%" if middle else ""


def round_ratios(data, phase, route, mode, key):
    """linkhost ÷ nginx within each round: the two ran back to back, so these pair up the noise."""
    ratios = []
    for number in sorted({run["round"] for run in data["runs"] if run["phase"] == phase}):
        pick = lambda kind: [run[key] for run in runs_of(data, phase, route, mode, kind) if run["round"] == number and run[key]]
        mine, theirs = pick("linkhost"), pick("nginx")
        if mine and theirs:
            ratios.append(mine[0] / theirs[0])
    return ratios


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_ratio(value):
    return f"{value:.2f}×" if value is not None else "n/a"


def fmt_num(value, digits=0):
    if value is None:
        return "n/a"
    return f"{value:,.{digits}f}"


def fmt_mb(kb):
    return f"{kb / 1024:.1f} MB"
