"""Figure bowl-drift: the frictionless bowl (thesis Section 6.2) at maximum
steps of 1, 4, 16 and 64 ms.

Left: relative energy error against time, per step. Middle: the largest
horizontal drift and energy error against the maximum step (log-log, with a
slope-4 guide). Right: the constraint (gap at the contact) of the
maximal-coordinate baseline (acceleration-level multiplier, no
stabilisation) beside that of the reduced coordinates, which parameterise it
(their gap is the signed distance of the two surfaces, measured from the
bowl's pose without the contact coordinates: round-off).

Usage: bowl_drift.py DATA_DIR NAME  (reads errors.csv, convergence.csv and
baseline.csv written by `contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np


def main(data_dir: Path, name: str) -> None:
    errors = np.genfromtxt(data_dir / "errors.csv", delimiter=",", names=True)
    conv = np.genfromtxt(data_dir / "convergence.csv", delimiter=",", names=True)
    base = np.genfromtxt(data_dir / "baseline.csv", delimiter=",", names=True)
    floor = 1e-18

    fig, (ax_e, ax_c, ax_b) = plt.subplots(1, 3, figsize=(15, 4.2))
    for k, h in enumerate(np.unique(errors["h"])):
        rows = errors["h"] == h
        ax_e.semilogy(errors["t"][rows], np.maximum(errors["energy_error"][rows], floor), f"C{k}-", lw=0.8,
                      label=f"h_max = {h * 1e3:g} ms")
    ax_e.set_xlabel("time (s)")
    ax_e.set_ylabel(r"$|E - E_0| / |E_0|$")
    ax_e.set_title("energy error")
    ax_e.legend(fontsize=8)
    ax_e.grid(True, which="both", alpha=0.3)

    h = conv["h"]
    ax_c.loglog(h, conv["horizontal_drift"], "o-", label="max horizontal drift (m)")
    ax_c.loglog(h, conv["energy_error"], "s--", label="max relative energy error")
    ax_c.loglog(h, conv["horizontal_drift"][0] * (h / h[0]) ** 4, "k-", alpha=0.4, label="slope 4")
    ax_c.set_xlabel("maximum step h_max (s)")
    ax_c.set_title("convergence (RK4, located crossings)")
    ax_c.grid(True, which="both", alpha=0.3)
    ax_c.legend(fontsize=8)

    for k, hh in enumerate(np.unique(base["h"])):
        rows = base["h"] == hh
        ax_b.semilogy(base["t"][rows], np.maximum(np.abs(base["baseline_gap"][rows]), floor), f"C{k}-", lw=0.8,
                      label=f"maximal coordinates, h = {hh * 1e3:g} ms")
    for k, hh in enumerate(np.unique(errors["h"])):
        rows = errors["h"] == hh
        ax_b.semilogy(errors["t"][rows], np.maximum(np.abs(errors["gap"][rows]), floor), f"C{k}:", lw=0.8,
                      label=f"reduced coordinates, h_max = {hh * 1e3:g} ms" if k == 0 else None)
    ax_b.set_xlabel("time (s)")
    ax_b.set_ylabel("|gap| at the contact (m)")
    ax_b.set_title("constraint drift: baseline vs reduced coordinates")
    ax_b.grid(True, which="both", alpha=0.3)
    ax_b.legend(fontsize=7)

    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
